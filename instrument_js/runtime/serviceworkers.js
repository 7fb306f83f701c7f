// webr4 runtime: service workers.
// A service worker's own code runs natively (init scripts never reach it), so what it does
// is uncontrolled (the harness lists it when it serves the worker's requests); what the page
// sees of it is controlled, as for a dedicated worker: the outcome of `register()` is an event
// (type "service-worker-registration", the script's URL in its parameters, which tells the
// harness which scripts the page registered), and so is each `controllerchange` and `message`
// the container delivers. When the context blocks service workers, `register()` is
// Playwright's stand-in, which resolves to undefined: its outcome is an event all the same.
// settle() waits a little for the container to answer after a registration succeeded (a worker
// that claims the page changes its controller at once).
function serviceWorkerContainer() {
  // undefined outside secure contexts; reading it throws in a document of an opaque origin
  try { return navigator.serviceWorker; } catch (e) { return undefined; }
}
const pageWorkers = serviceWorkerContainer();
if (typeof ServiceWorkerContainer === "function" && pageWorkers) {
  const nativeRegister = ServiceWorkerContainer.prototype.register;
  holdPeerEvents(pageWorkers, ["controllerchange", "message"],
    { type: "service-worker", label: "service worker container", url: normalizeUrl(location.href) },
    (e) => e.type === "message" ? copyMessage(e) : new Event(e.type));
  ServiceWorkerContainer.prototype.register = function register(scriptURL) {
    const creator = current;
    const site = creationSite();
    const registering = apply(nativeRegister, this, arguments);
    inflight++;
    return new NativePromise((resolve, reject) => {
      const arrive = (outcome, run) => {
        inflight--;
        createEvent({
          category: "message", type: "service-worker-registration", creator,
          label: `service worker ${shortUrl(scriptURL)} ${outcome}`,
          params: { url: normalizeUrl(scriptURL), site }, site, run,
        });
      };
      then(registering,
        (registration) => {
          if (registration) awaitAnswer(pageWorkers);
          arrive(registration ? "registered" : "not registered", () => resolve(registration));
        },
        (err) => arrive("registration failed", () => reject(err)));
    });
  };
}
