// The webr4 report's only script: sorting and filtering the reversal table, the screenshot
// toggle and the copy button. It reads the page's own DOM and never inserts markup.
"use strict";

function setupTable() {
  const table = document.getElementById("reversals");
  if (!table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const verdict = document.getElementById("verdict-filter");
  const text = document.getElementById("text-filter");
  const shown = document.getElementById("shown");
  const key = (row, column) => {
    const cell = row.cells[column];
    return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim().toLowerCase();
  };
  const filter = () => {
    const wanted = verdict.value;
    const needle = text.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const visible = (!wanted || row.dataset.verdict === wanted) &&
                      (!needle || row.textContent.toLowerCase().includes(needle));
      row.hidden = !visible;
      if (visible) count += 1;
    }
    shown.textContent = count + " shown";
  };
  verdict.addEventListener("change", filter);
  text.addEventListener("input", filter);
  document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());
  table.tHead.querySelectorAll("th[data-type]").forEach((th) => {
    th.addEventListener("click", () => {
      const column = th.cellIndex;
      const numeric = th.dataset.type === "number";
      const direction = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      table.tHead.querySelectorAll("th").forEach((other) => other.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", direction === 1 ? "ascending" : "descending");
      rows.sort((a, b) => {
        const x = key(a, column), y = key(b, column);
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return order * direction;
      });
      body.append(...rows);
    });
  });
}

function setupShots() {
  const shots = document.getElementById("shots");
  if (!shots) return;
  const frames = shots.querySelector(".frames");
  const buttons = shots.querySelectorAll("button[data-show]");
  buttons.forEach((button) => {
    button.addEventListener("click", () => {
      frames.dataset.mode = button.dataset.show;
      buttons.forEach((other) => other.classList.toggle("on", other === button));
    });
  });
  const overlay = document.getElementById("overlay");
  if (overlay) overlay.addEventListener("change", () => frames.classList.toggle("overlaid", overlay.checked));
}

function setupCopy() {
  document.querySelectorAll("button[data-copy]").forEach((button) => {
    button.addEventListener("click", () => {
      const source = document.getElementById(button.dataset.copy);
      const done = () => { button.textContent = "Copied"; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(source.textContent).then(done, () => selectText(source));
      } else {
        selectText(source);
      }
    });
  });
}

function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

document.addEventListener("DOMContentLoaded", () => {
  setupTable();
  setupShots();
  setupCopy();
});
