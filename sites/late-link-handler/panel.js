// Turns the "Nutrition facts" link into an in-page panel: the navigation is cancelled.
// Until this file has run, a click on the link navigates to nutrition.html.
document.getElementById('nutrition').addEventListener('click', function (event) {
  event.preventDefault();
  document.getElementById('nutrition-panel').hidden = false;
});
