// Attached late: the image may have finished loading before this script runs.
var photo = document.getElementById('photo');
function showReady() {
  var caption = document.getElementById('caption');
  caption.textContent = 'Photo ready (' + photo.naturalWidth + 'x' + photo.naturalHeight + ')';
  caption.setAttribute('data-state', 'ready');
}
// FIX: if the image loaded while the parser waited for this script, its load event has
// already fired: update the caption now instead of waiting for an event that never comes.
if (photo.complete && photo.naturalWidth > 0) {
  showReady();
} else {
  photo.addEventListener('load', showReady);
}
