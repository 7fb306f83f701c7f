// Turns the "Nutrition facts" link into an in-page panel. The inline script in index.html
// already cancels the navigation (FIX) and remembers a click that came before this file ran.
function showNutritionPanel() {
  document.getElementById('nutrition-panel').hidden = false;
}
document.getElementById('nutrition').addEventListener('click', showNutritionPanel);
if (nutritionClicked) showNutritionPanel();   // FIX: honour an early click
