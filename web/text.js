// Putting the views' texts on the page: always as text (textContent), never as
// HTML, whatever they hold (a friend's page sends some of them).

/** `value` as text; nothing for undefined or null. */
export function text(value) {
  return value === undefined || value === null ? "" : String(value);
}

/** `value` if it is an array, else an empty one. */
export function list(value) {
  return Array.isArray(value) ? value : [];
}

/** `value` if it is an object (not null), else an empty one. */
export function record(value) {
  return value && typeof value === "object" ? value : {};
}

/** Set a node's text (when the node is there and the text differs). */
export function setText(node, value) {
  const t = text(value);
  if (node && node.textContent !== t) node.textContent = t;
}
