// Search as you type: every keystroke asks the server and shows whatever answer comes back.
const q = document.getElementById("q");
const summary = document.getElementById("summary");
const results = document.getElementById("results");

q.addEventListener("input", async () => {
  const query = q.value.trim().toLowerCase();
  if (query === "") { results.replaceChildren(); summary.textContent = ""; return; }
  const response = await fetch(`api/${encodeURIComponent(query)}.json`);
  const products = response.ok ? await response.json() : [];
  summary.textContent = `${products.length} results`;
  results.replaceChildren(...products.map((product) => {
    const li = document.createElement("li");
    li.textContent = `${product.name} — £${product.price.toFixed(2)}`;
    return li;
  }));
});
