// webr4 access log: the buffer of the current event's accesses, their locations' names, and flushing it.

/* Where this log's summaries find its locations, one event after another (the runtime's
   `AccessSummary`): each location's state there also keeps its holding-back mark. */
var locationIndex = sealed(new Map());

/* The runtime's log of the current event: the summary of its accesses (or, for diagnostics,
   every access); every access where there is no runtime. */
function freshBuffer() {
  var make = root.__webr4 && root.__webr4.newAccessLog;
  return typeof make === "function" ? make(locationIndex) : everyAccess();
}

function everyAccess() {
  var list = [];
  return {
    push: function (entry) { list[list.length] = entry; },
    addNamed: function (kind, group, key, site, value) {
      list[list.length] = [kind, locationName(group, key), site, value];
    },
    entries: function () { return list; }
  };
}
var buffer = freshBuffer();
var log = { enabled: true, k: undefined };

/* The location of property or variable `name` of `group`: a global for group 0, else of
   object `group` or, when it is negative, of closure scope `-group`; a string group is a
   module's scope id. The hot path passes the two along and the summary makes the name once
   per location and event. */
function locationName(group, name) {
  if (typeof group === "string") return "scope:" + group + ":" + name;
  if (group > 0) return "prop:" + group + "." + name;
  return group === 0 ? "global:" + name : "scope:" + -group + ":" + name;
}

/* Records an access to location `group`, `name` (see `locationName`). */
function record(kind, group, name, site, valueDigest) {
  if (log.enabled !== false) buffer.addNamed(kind, group, name, site, valueDigest, locationName);
}

/** The entries since the last flush; with `event` (the event they belong to), those of the
 *  locations no earlier event touched are held back, their positions counted after `offset`
 *  locations the event's record lists before this log's. */
log.flush = function (event, offset) {
  var entries = buffer;
  buffer = freshBuffer();
  if (typeof entries.split !== "function") return entries.entries();
  return entries.split(holder(event, offset || 0));
};

/** Adds another log's entry (accesses through browser APIs) in order with this log's own. */
log.append = function (entry) {
  buffer.push(entry);
};

/** The value digest of entries, for other logs that record into the same buffer. */
log.digest = digest;

/** `sealed(collection)`, for other logs that keep their own maps out of the page's reach. */
log.sealed = sealed;
