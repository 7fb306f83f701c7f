var port = new URLSearchParams(location.search).get('port');
var socket = new WebSocket('ws://127.0.0.1:' + port + '/');
var seen = [];
function show(what) { seen.push(what); document.getElementById('out').textContent = seen.join(', '); }
socket.onopen = function () { show('open'); socket.send('ping'); };
socket.onmessage = function (event) { show(event.data); if (event.data === 'echo:ping') socket.close(); };
socket.onclose = function () { show('close'); };
