// Adding to the cart asks the server, which answers with the cart's new size.
const count = document.getElementById("cart-count");
const note = document.getElementById("cart-note");

document.getElementById("add").addEventListener("click", async () => {
  note.textContent = "Adding…";
  const response = await fetch("api/add.json");
  const cart = await response.json();
  count.textContent = String(cart.count);
  note.textContent = `${cart.added} added to your cart.`;
});
