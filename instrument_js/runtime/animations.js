// webr4 runtime: the ends of CSS transitions and animations as events on the virtual clock.

// ------------------------------------------------------------------ transitions and animations
// Chromium runs CSS transitions and animations on its real clock and dispatches `transitionend`
// and `animationend` in the rendering update after they end, while timers here fire on the
// virtual clock, long before the real one gets there: a 400 ms timer would run before a 250 ms
// transition ends. So each end is an event of its own, due when the transition or animation ends
// on the virtual clock. Once an event's task has run, and again once it has settled (what its
// native completions started), `noteAnimations` computes the style it changed
// (`document.getAnimations()` does, as the browser's next rendering update would) and gives each
// new running CSS transition or animation with a finite end an event, created by the event that
// started it. Running that event finishes the transition or animation when it still runs and
// dispatches the end event Chromium would (bubbling and cancelable, with its property or
// animation name, elapsed time and pseudo-element); a cancelled one (its property no longer
// transitions, its element left the document) ends without an event, as in Chromium. The native
// end event of a transition or animation that has an event here is stopped before any page
// listener sees it. `animationiteration`, `transitionrun`, `transitionstart` and the cancel
// events stay native; so do the ends of animations made with `element.animate()`.
//
// A CSS transition also runs on the virtual clock while its end is pending: it is paused when
// noted and its current time set to the virtual time since, each time the clock moves
// (`syncTransitions`). A transition that a style change interrupts is replaced by one whose
// duration depends on how far the first had come (reversing transitions are shortened), and
// on the real clock that depended on how long the harness took.
//
// Playwright acts on an element only once its box stays put over two animation frames (its
// `stable` check): in Chromium a click on a button that slides in comes after the slide's end
// event. `movesElement` tells the harness whether an element or one of its ancestors is still
// moved by a transition or animation whose end event here has not run, so that the step waits
// for that event as it would wait on the real clock.
const nativeGetAnimations = Document.prototype.getAnimations;
const NativeCSSTransition = window.CSSTransition;
const NativeCSSAnimation = window.CSSAnimation;
const NativeTransitionEvent = window.TransitionEvent;
const NativeAnimationEvent = window.AnimationEvent;
const animationsNoted = newWeakSet(); // transitions and animations that have their end event
const nativeEndsDue = newWeakMap(); // element -> Map of end key -> native end events to stop
const transitionsHeld = newMap(); // CSS transition -> virtual time it was noted at, until its end event
const movingUntilEnd = newMap(); // animation -> the element it moves, until its end event runs
/** Properties that change how an element is painted but never where its box is. */
const PAINT_ONLY = newSet(["opacity", "visibility", "color", "background-color", "background-position",
  "background-size", "background-image", "border-color", "border-top-color", "border-right-color",
  "border-bottom-color", "border-left-color", "outline-color", "outline-offset", "outline-width",
  "box-shadow", "text-shadow", "filter", "backdrop-filter", "fill", "stroke", "caret-color",
  "text-decoration-color", "clip-path", "z-index"]);

/** What names an end among its element's: the event type, the property or animation name, the
 *  pseudo-element. */
function endKey(type, name, pseudo) {
  return `${type}|${name}|${pseudo || ""}`;
}

function countNativeEnd(target, key, change) {
  let counts = nativeEndsDue.get(target);
  if (!counts) nativeEndsDue.set(target, (counts = newMap()));
  const left = (counts.get(key) || 0) + change;
  if (left > 0) counts.set(key, left); else counts.delete(key);
  return left - change;
}

function stopNativeEnd(e) {
  if (!e.isTrusted || !(e.target instanceof N.Element)) return;
  const name = e.type === "transitionend" ? e.propertyName : e.animationName;
  if (countNativeEnd(e.target, endKey(e.type, name, e.pseudoElement), -1) > 0) e.stopImmediatePropagation();
}
call(N.addEventListener, window, "transitionend", stopNativeEnd, true);
call(N.addEventListener, window, "animationend", stopNativeEnd, true);

/** The end event of a CSS transition or animation, or null for any other animation. */
function endOf(animation) {
  const effect = animation.effect;
  if (!effect || !(effect.target instanceof N.Element)) return null;
  const pseudo = effect.pseudoElement || "";
  if (NativeCSSTransition && animation instanceof NativeCSSTransition) {
    return { type: "transitionend", name: animation.transitionProperty, pseudo, Event: NativeTransitionEvent, field: "propertyName" };
  }
  if (NativeCSSAnimation && animation instanceof NativeCSSAnimation) {
    return { type: "animationend", name: animation.animationName, pseudo, Event: NativeAnimationEvent, field: "animationName" };
  }
  return null;
}

/** Milliseconds from the animation's start to its end at its rate, or null when it never ends.
 *  Its start is taken to be now on the virtual clock: its own current time counts the real
 *  time since the rendering update that started it, which the virtual clock does not follow. */
function timeToEnd(animation) {
  const end = animation.effect.getComputedTiming().endTime;
  const rate = animation.playbackRate;
  return Number.isFinite(end) && rate > 0 ? end / rate : null;
}

/** The properties the transition or animation changes, as CSS names them. */
function animatedProperties(animation, end) {
  if (end.type === "transitionend") return [end.name];
  const names = [];
  const keyframes = animation.effect.getKeyframes();
  for (let i = 0; i < keyframes.length; i++) {
    for (const key in keyframes[i]) {
      if (key !== "offset" && key !== "computedOffset" && key !== "easing" && key !== "composite") {
        A.push(names, key.replace(/[A-Z]/g, (letter) => "-" + letter.toLowerCase()));
      }
    }
  }
  return names;
}

/** Whether the transition or animation can move its element's box (not its pseudo-element's). */
function movesBox(animation, end) {
  if (end.pseudo) return false;
  const names = animatedProperties(animation, end);
  for (let i = 0; i < names.length; i++) if (!PAINT_ONLY.has(names[i])) return true;
  return false;
}

/** Whether a transition or animation whose end event has not run moves `element` or an
 *  ancestor of it (across shadow roots): Playwright's `stable` check would wait for it. */
/** Whether any transition or animation whose end event has not run moves an element. */
function movesAnything() {
  return movingUntilEnd.size > 0;
}

function movesElement(element) {
  let moving = false;
  movingUntilEnd.forEach((mover) => {
    for (let node = element; node && !moving; node = node.parentNode || node.host) moving = node === mover;
  });
  return moving;
}

function elementWords(element) {
  return element.id ? `${element.localName}#${element.id}` : element.localName;
}

function scheduleEnd(animation, end) {
  const left = timeToEnd(animation);
  if (left === null) return;
  const target = animation.effect.target;
  const key = endKey(end.type, end.name, end.pseudo);
  countNativeEnd(target, key, 1);
  if (movesBox(animation, end)) movingUntilEnd.set(animation, target);
  if (end.type === "transitionend") holdOnVirtualClock(animation);
  createEvent({
    category: "timer", type: end.type,
    label: `${end.type} ${end.name} of ${elementWords(target)}${end.pseudo} after ${Math.round(left)}ms`,
    params: { name: end.name, target: elementWords(target), pseudo: end.pseudo },
    due: virtualNow + left, prio: 1,
    run: () => endAnimation(animation, end, target, key),
  });
}

/** Pauses a transition at its start, to be moved on by `syncTransitions`. */
function holdOnVirtualClock(animation) {
  animation.pause();
  animation.currentTime = 0;
  transitionsHeld.set(animation, virtualNow);
}

/** Sets each held transition's current time to the virtual time since it was noted, at most its
 *  end; called whenever the virtual clock moves. */
function syncTransitions() {
  transitionsHeld.forEach((noted, animation) => {
    if (animation.playState === "idle") { transitionsHeld.delete(animation); return; } // cancelled
    const end = animation.effect.getComputedTiming().endTime;
    animation.currentTime = Math.min((virtualNow - noted) * animation.playbackRate, end);
  });
}

function endAnimation(animation, end, target, key) {
  movingUntilEnd.delete(animation);
  transitionsHeld.delete(animation);
  if (animation.playState === "idle") {
    countNativeEnd(target, key, -1); // cancelled: Chromium sends no end event, native or here
    return;
  }
  if (animation.playState !== "finished") animation.finish();
  const init = { bubbles: true, cancelable: true, elapsedTime: animation.effect.getComputedTiming().activeDuration / 1000,
    pseudoElement: end.pseudo };
  init[end.field] = end.name;
  call(N.dispatchEvent, target, new end.Event(end.type, init));
}

// Chromium also starts transitions by itself: it updates which elements are under the mouse
// (`:hover`) in its rendering updates, on its real clock, so once a layout change moved what lies
// under a mouse at rest, the hover styles' transitions start in whichever rendering update comes
// next, between two of webr4's tasks or within one. No event's task started them, and no replay
// would start them at the same point. So what runs before an event's task (`passOverAnimations`)
// and, outside a user step, a transition of an element whose hover state (its own or an
// ancestor's) changed during the event, is left to Chromium: it keeps the real clock and its
// native end event, as an animation made with `element.animate()` does. A user step moves the
// mouse itself, so what its hover starts is its own; so are the transitions of an element when
// the event changed the attributes or children of an element whose hover moved, that element or
// an ancestor of it, as when it shows a dialog that thereby comes under the mouse: the event's
// own change starts them too (a change further up, as to a class of the whole app, does not).
let hoveredBeforeTask = []; // elements under the mouse when the running event began
let userStepRunning = false;
const changedByEvent = newSet(); // elements whose attributes or children the running event changed
const changeWatch = new N.MutationObserver(noteChanges);
changeWatch.observe(document, { attributes: true, childList: true, subtree: true });

function noteChanges(records) {
  for (let i = 0; i < records.length; i++) changedByEvent.add(records[i].target);
}

/** The elements under the mouse, outermost first, through open shadow roots. */
function hoveredElements() {
  const hovered = [];
  const root = document.documentElement;
  if (!root) return hovered;
  const lists = [call(N.querySelectorAll, root, ":hover")];
  while (lists.length) {
    const list = A.shift(lists);
    for (let i = 0; i < list.length; i++) {
      A.push(hovered, list[i]);
      if (list[i].shadowRoot) A.push(lists, call(N.fragmentQuerySelectorAll, list[i].shadowRoot, ":hover"));
    }
  }
  return hovered;
}

/** Whether Chromium's moving of the hover started a transition of `element`: it or one of its
 *  ancestors (across shadow roots) came under the mouse or left it between the two lists of
 *  hovered elements, and the running event changed none of those that did (see above). */
function startedByHover(element, before, after) {
  let moved = false;
  for (let node = element; node; node = node.parentNode || node.host) {
    if (A.includes(before, node) === A.includes(after, node)) continue;
    if (changedByEvent.has(node)) return false;
    moved = true;
  }
  return moved;
}

// A user step's transitions start in the rendering updates while Playwright performs it, and a
// short one (a fade that a click reverses a few milliseconds into it) could end on the real clock
// before the step returns and its transitions are noted. So each is paused as it starts
// (`transitionrun`), and noted with the others once the step is done, in the one order
// `getAnimations` gives them all: noted as they start, in the rendering updates each happened
// to come in, two transitions due at once ended in another order in each replay.
const pausedInStep = newWeakSet(); // transitions a user step started, paused until it is done
call(N.addEventListener, window, "transitionrun", (e) => {
  if (!userStepRunning || current === null || !e.isTrusted || !nativeGetAnimations) return;
  const animations = call(nativeGetAnimations, document);
  for (let i = 0; i < animations.length; i++) {
    const animation = animations[i];
    if (animationsNoted.has(animation) || animation.playState !== "running") continue;
    if (NativeCSSTransition && animation instanceof NativeCSSTransition) {
      animation.pause();
      pausedInStep.add(animation);
    }
  }
}, true);

/** Leaves to Chromium each running CSS transition and animation that no event has noted, before
 *  an event's task runs (a user step's when `byUser`): what is found was started by Chromium
 *  between events (see above). */
function passOverAnimations(byUser) {
  userStepRunning = byUser;
  if (!nativeGetAnimations) return;
  const animations = call(nativeGetAnimations, document);
  for (let i = 0; i < animations.length; i++) {
    const animation = animations[i];
    if (!animationsNoted.has(animation) && animation.playState === "running") animationsNoted.add(animation);
  }
  if (byUser) return;
  hoveredBeforeTask = hoveredElements();
  call(N.takeRecords, changeWatch); // what changed before the event is not the event's
  changedByEvent.clear();
}

/** Gives each new running CSS transition and animation an event due at its end (see above). */
function noteAnimations() {
  if (!nativeGetAnimations) return;
  const animations = call(nativeGetAnimations, document);
  let hovered = null; // read when first needed
  for (let i = 0; i < animations.length; i++) {
    const animation = animations[i];
    if (animationsNoted.has(animation)) continue;
    if (animation.playState !== "running" && !(pausedInStep.has(animation) && animation.playState === "paused")) continue;
    animationsNoted.add(animation);
    const end = endOf(animation);
    if (end === null) continue;
    if (!userStepRunning) {
      if (hovered === null) {
        hovered = hoveredElements();
        noteChanges(call(N.takeRecords, changeWatch));
      }
      if (startedByHover(animation.effect.target, hoveredBeforeTask, hovered)) continue; // Chromium's own
    }
    scheduleEnd(animation, end);
  }
}
