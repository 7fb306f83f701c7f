postMessage('worker');
