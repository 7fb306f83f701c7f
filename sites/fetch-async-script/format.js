// Loaded with <script async>: defines the formatter the fetch callback needs.
window.formatMoney = function (cents, currency) {
  var whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  var frac = String(cents % 100).padStart(2, '0');
  return (currency === 'EUR' ? '\u20ac' : '$') + whole + '.' + frac;
};
