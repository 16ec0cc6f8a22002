// A tiny DOM builder: h("button", {class: "x", onclick: fn}, "text", child). No innerHTML anywhere, so
// nothing a player typed can ever run as markup, and the page needs no inline script or style (CSP).

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

// A labelled form control: <label>text <input ...></label> keeps the accessible name next to the control.
export function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), control, hint ? h("small", {}, hint) : null);
}

// A count with − and + (and, with `big`, a +big button); with `typed` the count is also a number field, for a
// count a person would rather type (ten junk). onchange(value, typed): typed is true for a field's change,
// which the caller draws with app.later (the tap that ended the typing must not be lost). `name`: the accessible
// name when the label shown is short ("고" shown, "민수의 고" said).
export function stepper(label, value, min, max, onchange, key, { big = 0, typed = false, name = label } = {}) {
  const set = (v, fromField = false) => onchange(Math.max(min, Math.min(max, v)), fromField);
  const count = typed
    ? h("input", {
        type: "number", inputmode: "numeric", min, max, value, class: "count", "data-key": key, "data-test": key, "aria-label": name,
        onchange: (e) => set(Math.floor(Number(e.target.value) || 0), true),
      })
    : h("output", { "aria-live": "polite", "data-test": key }, String(value));
  return h("div", { class: "stepper", role: "group", "aria-label": name },
    h("span", { class: "field-label", "aria-hidden": name === label ? null : "true" }, label),
    h("span", { class: "steps" },
      h("button", { type: "button", class: "step", "data-key": key + "-minus", "aria-label": `${name} −1`, disabled: value <= min, onclick: () => set(value - 1) }, "−"),
      count,
      h("button", { type: "button", class: "step", "data-key": key + "-plus", "aria-label": `${name} +1`, disabled: value >= max, onclick: () => set(value + 1) }, "+"),
      big ? h("button", { type: "button", class: "step big", "data-key": `${key}-plus${big}`, "aria-label": `${name} +${big}`, disabled: value >= max, onclick: () => set(value + big) }, `+${big}`) : null),
  );
}
