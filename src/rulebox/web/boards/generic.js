// The board of last resort: the view as readable data and the legal moves as buttons.
// Every game is playable with it, before (or without) a drawing of its own.

import { el, clear } from "../dom.js";
import { t } from "../i18n.js";

export function reset() {}

function describe(value, depth = 0) {
  if (value === null || typeof value !== "object") return el("span", { class: "val" }, JSON.stringify(value));
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return el("span", { class: "val" }, value.map((v) => JSON.stringify(v)).join(" "));
    return el("ol", { class: "tree", start: 0 }, ...value.map((v) => el("li", {}, describe(v, depth + 1))));
  }
  return el("dl", { class: "tree" }, ...Object.entries(value).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, describe(v, depth + 1))]));
}

export function draw(root, ctx) {
  const pos = ctx.view.position || ctx.view;
  clear(root).append(el("div", { class: "generic-view" }, describe(pos)));
  const c = clear(ctx.controls);
  if (ctx.legal.length) {
    c.append(el("p", { class: "muted" }, t("Your moves:")));
    const list = el("div", { class: "legal-buttons" });
    for (const m of ctx.legal.slice(0, 400)) {
      const b = el("button", { class: "btn small", type: "button", "data-move": m }, m);
      b.addEventListener("click", () => ctx.play(m));
      list.append(b);
    }
    c.append(list);
  }
}
