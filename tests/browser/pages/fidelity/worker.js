onmessage = function (event) {
  postMessage('sum ' + (event.data + 22));
  postMessage('done');
};
