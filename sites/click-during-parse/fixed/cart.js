// Defines the function that the #add button's inline onclick attribute calls.
var cartCount = 0;
function addToCart() {
  cartCount += 1;
  document.getElementById('cart').textContent =
    'Cart: ' + cartCount + (cartCount === 1 ? ' item' : ' items');
}
// FIX: the button is disabled in the markup until addToCart exists; enable it now.
document.getElementById('add').disabled = false;
