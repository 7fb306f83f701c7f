// Defines the function that the #add button's inline onclick attribute calls.
// Until this file has run, clicking #add raises a ReferenceError.
var cartCount = 0;
function addToCart() {
  cartCount += 1;
  document.getElementById('cart').textContent =
    'Cart: ' + cartCount + (cartCount === 1 ? ' item' : ' items');
}
