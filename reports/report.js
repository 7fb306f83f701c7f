// The webr4 report's only script: sorting and filtering the reversal table, the screenshot
// toggle and the copy button. It reads the page's own DOM and never inserts markup.
"use strict";

function setupTable() {
  // One tbody per group of near-identical reversals: its first row leads it, the others
  // (tr.member) show when the group is expanded or a text search matches them. Sorting moves
  // whole groups, by their first row.
  const table = document.getElementById("reversals");
  if (!table) return;
  const groups = Array.from(table.tBodies);
  const rows = groups.flatMap((group) => Array.from(group.rows));
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
    for (const group of groups) {
      const found = Array.from(group.rows).some((row) => row.classList.contains("member") && !row.hidden);
      group.classList.toggle("searched", Boolean(needle) && found);
    }
    shown.textContent = count + " shown";
  };
  verdict.addEventListener("change", filter);
  text.addEventListener("input", filter);
  document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());
  table.querySelectorAll("button.expand").forEach((button) => {
    button.addEventListener("click", () => {
      const open = button.closest("tbody").classList.toggle("open");
      button.setAttribute("aria-expanded", String(open));
    });
  });
  table.tHead.querySelectorAll("th[data-type]").forEach((th) => {
    th.addEventListener("click", () => {
      const column = th.cellIndex;
      const numeric = th.dataset.type === "number";
      const direction = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      table.tHead.querySelectorAll("th").forEach((other) => other.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", direction === 1 ? "ascending" : "descending");
      groups.sort((a, b) => {
        const x = key(a.rows[0], column), y = key(b.rows[0], column);
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return order * direction;
      });
      table.append(...groups);
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
