var q = document.getElementById('q');
var box = document.getElementById('status');
document.getElementById('out').textContent = [q.placeholder, q.dataset.note,
  box.getAttribute('online'), box.title, q.attributes.length, box.attributes.length].join(' | ');
