var worker = new Worker('worker.js');
worker.onmessage = function (event) {
  var out = document.getElementById('out');
  out.textContent = out.textContent === 'waiting' ? event.data : out.textContent + ', ' + event.data;
};
worker.postMessage(20);
