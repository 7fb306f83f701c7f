// Attached late: only catches the load event if the image has not loaded yet.
var photo = document.getElementById('photo');
photo.addEventListener('load', function () {
  var caption = document.getElementById('caption');
  caption.textContent = 'Photo ready (' + photo.naturalWidth + 'x' + photo.naturalHeight + ')';
  caption.setAttribute('data-state', 'ready');
});
