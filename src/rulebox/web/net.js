// The JSON API as the page calls it: the page's language on every call, a seat's token as a
// Bearer header where one is given, and the account's session in its HttpOnly cookie (sent by
// the browser on same-origin requests; the page never sees it). A refusal throws an Error with
// the server's message, `status` and `info` (the `{"error": {...}}` body).

import { t, currentLang, langHeader } from "./i18n.js";

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json", ...langHeader() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const sep = path.includes("?") ? "&" : "?";
  const url = `${path}${sep}lang=${encodeURIComponent(currentLang())}`;
  const res = await fetch(url, { method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || t("HTTP error {status}", { status: res.status }));
    err.status = res.status;
    err.info = data && data.error;
    throw err;
  }
  return data;
}
