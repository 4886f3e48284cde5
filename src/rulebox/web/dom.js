// Small DOM helpers shared by the client and the boards.

const SVGNS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** An HTML element: el("div", {class: "x"}, child, "text"). */
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: svg("circle", {cx: 1, cy: 2, r: 3}). */
export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

/** Remove every child; returns the node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

function inline(text) {
  // **bold**, *em*, `code`, [RULE-ID] highlighted; everything else as text.
  const frag = document.createDocumentFragment();
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*]+\*|\b[A-Z0-9]{2,4}-\d+\b)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) frag.append(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("**")) {
      // a bold rule ID (the rulebooks' "**CR-10** Three: ...") stays a rule ID: the rules
      // dialog finds it to show the rule asked for
      const inner = t.slice(2, -2);
      frag.append(el("strong", {}, /^[A-Z0-9]{2,4}-\d+[a-z]?$/.test(inner) ? el("span", { class: "rule-id" }, inner) : inner));
    }
    else if (t.startsWith("`")) frag.append(el("code", {}, t.slice(1, -1)));
    else if (t.startsWith("*")) frag.append(el("em", {}, t.slice(1, -1)));
    else frag.append(el("span", { class: "rule-id" }, t));
    last = m.index + t.length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}

/** A small Markdown subset (headings, lists, paragraphs, code blocks, tables as text). */
export function markdown(src) {
  const out = document.createDocumentFragment();
  const lines = src.replace(/\r/g, "").split("\n");
  let list = null;
  let para = [];
  let code = null;
  const flush = () => {
    if (para.length) { out.append(el("p", {}, inline(para.join(" ")))); para = []; }
  };
  for (const line of lines) {
    if (code !== null) {
      if (line.startsWith("```")) { out.append(el("pre", {}, code.join("\n"))); code = null; } else code.push(line);
      continue;
    }
    if (line.startsWith("```")) { flush(); list = null; code = []; continue; }
    const h = line.match(/^(#{1,4})\s+(.*)$/);
    const li = line.match(/^\s*[-*]\s+(.*)$/);
    if (h) { flush(); list = null; out.append(el(`h${Math.min(4, h[1].length + 1)}`, {}, inline(h[2]))); }
    else if (li) { flush(); if (!list) { list = el("ul", {}); out.append(list); } list.append(el("li", {}, inline(li[1]))); }
    else if (!line.trim()) { flush(); list = null; }
    else if (list && /^\s+/.test(line)) { list.lastChild.append(" ", inline(line.trim())); }
    else if (line.startsWith("|")) { flush(); list = null; out.append(el("pre", { class: "table" }, line)); }
    else { list = null; para.push(line.trim()); }
  }
  flush();
  if (code !== null) out.append(el("pre", {}, code.join("\n")));
  return out;
}
