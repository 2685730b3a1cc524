// The invite's QR code: segno's matrix (rows of "0"/"1", from Python) drawn as
// SVG with DOM methods.

const SVG = "http://www.w3.org/2000/svg";

/** An <svg> of the matrix, one path for the dark modules, on white. */
export function qrSvg(rows, label) {
  const size = rows.length;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const paper = document.createElementNS(SVG, "rect");
  paper.setAttribute("width", String(size));
  paper.setAttribute("height", String(size));
  paper.setAttribute("fill", "#fff");
  let d = "";
  rows.forEach((row, y) => {
    const cells = String(row);
    let x = 0;
    while (x < cells.length) {
      if (cells[x] !== "1") {
        x += 1;
        continue;
      }
      let end = x;
      while (end < cells.length && cells[end] === "1") end += 1;
      d += `M${x} ${y}h${end - x}v1h${x - end}z`;
      x = end;
    }
  });
  const ink = document.createElementNS(SVG, "path");
  ink.setAttribute("d", d);
  ink.setAttribute("fill", "#000");
  svg.append(paper, ink);
  return svg;
}
