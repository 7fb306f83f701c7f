// The JSONP pattern: the script element is thrown away as soon as it is inserted.
function show(data) { document.getElementById('out').textContent = data.name; }
var s = document.createElement('script');
s.src = 'jsonp-data.js';
s.onload = function () { document.getElementById('out').title = 'loaded'; };
var slot = document.getElementById('slot');
slot.appendChild(s);
slot.innerHTML = '';
