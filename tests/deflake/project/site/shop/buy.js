document.getElementById("buy").addEventListener("click", function () {
  var basket = document.getElementById("basket");
  basket.textContent = String(Number(basket.textContent) + 1);
});
