// City suggestions, fetched 200 ms after the last keystroke; arrow keys and Enter pick one.
const city = document.getElementById("city");
const suggestions = document.getElementById("suggestions");
let timer = 0;
let active = -1;

function show(names) {
  active = -1;
  suggestions.replaceChildren(...names.map((name) => {
    const li = document.createElement("li");
    li.setAttribute("role", "option");
    li.textContent = name;
    li.addEventListener("click", () => pick(name));
    return li;
  }));
  city.setAttribute("aria-expanded", String(names.length > 0));
}

function pick(name) {
  city.value = name;
  show([]);
}

city.addEventListener("input", () => {
  clearTimeout(timer);
  const query = city.value.trim().toLowerCase();
  if (query.length < 2) { show([]); return; }
  timer = setTimeout(async () => {
    const response = await fetch(`api/${encodeURIComponent(query)}.json`);
    show(response.ok ? await response.json() : []);
  }, 200);
});

city.addEventListener("keydown", (event) => {
  const options = [...suggestions.children];
  if (event.key === "ArrowDown" && options.length) {
    event.preventDefault();
    active = Math.min(active + 1, options.length - 1);
    options.forEach((option, i) => option.setAttribute("aria-selected", String(i === active)));
  } else if (event.key === "Enter" && active >= 0) {
    event.preventDefault();
    pick(options[active].textContent);
  }
});
