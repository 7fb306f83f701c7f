/*
 * webr4 DOM access log: accesses made through browser APIs, recorded next to the JS accesses of
 * the access log (instrument_js/access_log/, installed before it). Entries have the same shape,
 * [kind, location, siteId, valueDigest], with siteId always null. Locations:
 *
 *   dom:#x                  existence of the element with id x: read by getElementById('x') and
 *                           querySelector('#x'), written when such an element enters or leaves
 *                           the document or its id changes (seen by a MutationObserver, so parser
 *                           insertions count; these writes arrive at the next microtask checkpoint)
 *   dom:sel:<selector>      any other querySelector / querySelectorAll (read only)
 *   dom:<key>.<prop>        state of one element; <key> is "#id" when it has one, else a path from
 *                           the nearest ancestor with an id (or html/head/body):
 *                           "#list>li:nth-of-type(3)>span", where a bare tag is the first of its
 *                           type; a tree outside the document starts with "~<n>", numbered in
 *                           order of first sight; the document itself is "document". A shadow
 *                           root is its host's key and "#shadow-root", "#card>#shadow-root", and
 *                           the keys of its nodes start there: "#card>#shadow-root>ul>li", and
 *                           "#card>#shadow-root>#name" for an id, which names an element only
 *                           within its tree.
 *                           <prop> names the state, not the API, so that aliases conflict:
 *                             textContent  textContent, innerText, innerHTML, outerHTML (read)
 *                             children     the child list: tree methods on the parent, reads of
 *                                          children / childNodes / firstChild; content writes
 *                                          and tree changes write both textContent and children
 *                             className    className, classList.*, the class attribute
 *                             style        style.*, style = ..., the style attribute
 *                             data-foo-bar dataset.fooBar and the attribute
 *                             value       an input's or textarea's value; a select's choice
 *                                         (value, selectedIndex, its options' selected)
 *                             checked     a checkbox's checkedness
 *                             radio:<n>   the checked radio of group <n>, on the key of its form
 *                                         owner (or "document"); checking one radio unchecks
 *                                         the others
 *                             src, href, and any other attribute name
 *                           The user typing writes value; a click on a checkbox or radio reads
 *                           and writes its checkedness (or its group).
 *   dom:document.activeElement  the focused element: written whenever focus moves (a click
 *                           into a control, focus(), blur(), autofocus), read by
 *                           document.activeElement and by the user typing
 *   dom:location            the document's URL: written by the event in which it changed
 *                           (location.hash = ..., history.pushState, a click on a link to
 *                           #id), as the runtime notes when each event ends; read by a test's
 *                           read of page.url
 *   handler:<key>.<type>    event handlers of an element, "window" or "document": written by
 *                           add/removeEventListener, on<type> = ..., on<type> attributes; read
 *                           when an event of that type is dispatched through the target
 *   storage:local.<k>       localStorage / sessionStorage items (methods and named properties)
 *   storage:session.<k>
 *   cookie:<name> / cookie:*  document.cookie set / get (the get reads every cookie)
 *
 * API wrappers keep the originals' results, exceptions, `this`, names and lengths, and replace
 * prototype properties with descriptors of the same shape. The wrappers' own work uses the
 * native functions captured below, and a reentrancy flag keeps it from being logged.
 */

var call = Function.prototype.call.bind(Function.prototype.call); // call(fn, self, ...args)
var apply = Reflect.apply;
var describe = Object.getOwnPropertyDescriptor;
var define = Object.defineProperty;
var getPrototypeOf = Object.getPrototypeOf;
var ownPropertyNames = Object.getOwnPropertyNames;
var createObject = Object.create;
var reflectGet = Reflect.get;
var reflectSet = Reflect.set;
var reflectDelete = Reflect.deleteProperty;
var NativeProxy = Proxy;
var testPattern = RegExp.prototype.test; // call(testPattern, pattern, text)
var doc = document;
// The page may replace these globals (a Shadow DOM polyfill puts its own constructors there).
var NativeNode = Node;
var NativeElement = Element;
var NativeShadowRoot = ShadowRoot;
var NativeInput = HTMLInputElement;
var NativeTextArea = HTMLTextAreaElement;
var NativeSelect = HTMLSelectElement;

var log = root.__webr4 && root.__webr4.log;
var installed = Symbol.for("webr4.domLog");
if (!log || log[installed]) return; // a frame the runtime does not control, or a second run
define(log, installed, { value: true });
var sealed = log.sealed;


function getterOf(proto, name) {
  return describe(proto, name).get;
}
var nodeType = getterOf(Node.prototype, "nodeType");
var parentNode = getterOf(Node.prototype, "parentNode");
var elementId = getterOf(Element.prototype, "id");
var localName = getterOf(Element.prototype, "localName");
var previousElementSibling = getterOf(Element.prototype, "previousElementSibling");
var rootNode = Node.prototype.getRootNode;
var shadowHost = getterOf(ShadowRoot.prototype, "host");
var querySelectorAll = Element.prototype.querySelectorAll;
var hasAttribute = Element.prototype.hasAttribute;
var addEventListener = EventTarget.prototype.addEventListener;
var composedPath = Event.prototype.composedPath;
var storageKey = Storage.prototype.key;
var storageLength = getterOf(Storage.prototype, "length");
var inputType = getterOf(HTMLInputElement.prototype, "type");
var inputValue = getterOf(HTMLInputElement.prototype, "value");
var inputChecked = getterOf(HTMLInputElement.prototype, "checked");
var textAreaValue = getterOf(HTMLTextAreaElement.prototype, "value");
var selectValue = getterOf(HTMLSelectElement.prototype, "value");

// ------------------------------------------------------------------ the buffer
// Entries go into the access log's buffer, in order with the JS entries.
var busy = false; // set while this log's own code runs

function active() {
  return !busy && log.enabled !== false;
}

function record(kind, location, valueDigest) {
  log.append([kind, location, null, valueDigest]);
}

var digest = log.digest; // one notion of "the same value" across both logs

/* A string argument as the API will see it, without running user code (null if it would). */
function text(value) {
  var type = typeof value;
  if (type === "string") return value;
  return type === "number" || type === "boolean" || type === "undefined" || value === null
    ? String(value) : null;
}

/* Runs this log's bookkeeping for an API call. Errors are swallowed: a bad receiver or argument
   must surface as the API's own error, raised by the original that runs next. */
function observe(fn, self, arg) {
  busy = true;
  try {
    return fn(self, arg);
  } catch (error) {
    return null;
  } finally {
    busy = false;
  }
}
