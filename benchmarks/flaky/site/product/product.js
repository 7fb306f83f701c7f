// The product's sizes and its stock come from two requests; the stock line shows once the stock is known.
const sizes = document.getElementById("sizes");

fetch("api/product.json")
  .then((response) => response.json())
  .then((product) => {
    document.getElementById("price").textContent = `£${product.price.toFixed(2)}`;
    sizes.replaceChildren(...product.sizes.map((size) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = size;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", () => {
        for (const other of sizes.children) other.setAttribute("aria-pressed", String(other === button));
      });
      return button;
    }));
  });

fetch("api/stock.json")
  .then((response) => response.json())
  .then((stock) => { document.getElementById("in-stock").hidden = stock.available === 0; });
