// webr4 access log: holding back the locations one event alone has touched.

/* Holding back what no other event sees. At an event's end, each location of its summary
   that no earlier event touched is held back here, with its summary, instead of being listed:
   most of what a framework's compiler or renderer touches, one event alone ever does. The
   first later event that touches a held location *promotes* it: the held summary is handed
   over with that event's record, tagged with the event that made it, where it takes its place
   among that event's locations again, and from then on the location is *shared* and listed
   directly. What is never promoted was touched by one event only. Each location's mark is
   read once per event, when the event ends; the accesses themselves do no more than before.
   Only the locations of this log's own accesses (variables and properties) are held: the
   runtime's `event:` locations (happens-before reads who wrote them) are not in this log, and
   those of the other logs that record here (DOM, storage, cookies: `append`) are listed.
   The mark is kept in the location's state in the summaries' index (`locationIndex`):
   undefined until an event's end finds the location, then its held record [event, position,
   rank, entries] while it is held, SHARED from its second event on. */
var SHARED = 0;
var promoted = []; // [event, position, rank, entries] for each location promoted since takeHeld
var heldWrites = []; // the names of the locations held back since takeHeld that were written
var heldWritten = sealed(new Set()); // the same, to list each once

/* Holds back the locations of `event` no earlier event touched and promotes those one earlier
   event touched (see `AccessSummary.split`); without an event, every location is shared.
   Only this log's own locations (those it names: `named`) are held. */
function holder(event, offset) {
  return function (state, position, rank) {
    if (!state.named) return null;
    var mark = state.mark;
    if (mark === SHARED) return null;
    if (mark !== undefined || event === null || event === undefined) {
      if (mark !== undefined) promoted[promoted.length] = mark;
      state.mark = SHARED;
      return null;
    }
    var entries = [];
    state.mark = [event, offset + position, rank, entries];
    if (state.write !== null) {
      var name = state.key;
      if (!heldWritten.has(name)) {
        heldWritten.add(name);
        heldWrites[heldWrites.length] = name;
      }
    }
    return entries;
  };
}

/** What holding back changed since the last call: `promoted`, the held-back locations later
 *  events touched ([event, position, rank, entries], see `AccessSummary.split`), and `written`,
 *  the names (property or variable) of the locations flushes held back that were written. */
log.takeHeld = function () {
  var out = { promoted: promoted, written: heldWrites };
  promoted = [];
  heldWrites = [];
  heldWritten.clear();
  return out;
};
