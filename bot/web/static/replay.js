// The replay's controls (README, Web companion: Replays): every step's text arrives
// already escaped by the server, as JSON in parts of `size` steps; the page holds the
// part it was opened at, and this asks for the others when a step in them is shown.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var first = JSON.parse(document.getElementById("steps").textContent);
  if (!root || !first.steps.length) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var total = Number(root.dataset.total), size = Number(root.dataset.size);
  var start = Number(root.dataset.start);
  var parts = {}, asked = {};
  parts[start / size] = first;
  var scrub = $("scrub"), play = $("play"), at = start, timer = null;

  function load(p, then) {
    if (parts[p]) { then(); return; }
    if (asked[p]) { asked[p].push(then); return; }
    asked[p] = [then];
    fetch(root.dataset.parts + p, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        parts[p] = data;
        var waiting = asked[p];
        delete asked[p];
        for (var i = 0; i < waiting.length; i++) { waiting[i](); }
      });
  }

  function show(n) {
    at = Math.max(0, Math.min(total - 1, n));
    scrub.value = String(at + 1);
    var p = Math.floor(at / size), wanted = at;
    if (!parts[p]) { load(p, function () { if (at === wanted) { show(wanted); } }); return; }
    // The next part is asked for while this one plays, so play never waits.
    if (at % size > size / 2 && (p + 1) * size < total) { load(p + 1, function () {}); }
    var part = parts[p], s = part.steps[at - p * size];
    $("where").textContent = s.where;
    $("round").innerHTML = s.round;
    $("claim").innerHTML = s.claim;
    $("cup").innerHTML = s.cup;
    $("move").innerHTML = s.move;
    var lines = "";
    for (var i = 0; i < s.lines.length; i++) { lines += "<li>" + s.lines[i] + "</li>"; }
    $("lines").innerHTML = lines;
    var rows = "";
    for (var j = 0; j < s.seats.length; j++) {
      var seat = s.seats[j];
      rows += "<tr" + (seat[3] ? " class=\"out\"" : "") + "><td>" + part.players[seat[0]] +
        "</td><td>" + seat[1] + "</td><td>" + seat[2] + "</td></tr>";
    }
    $("seats").innerHTML = rows;
    var seal = $("seal");
    seal.hidden = !s.digest;
    $("digest").textContent = s.digest;
    $("sealtext").textContent = s.sealed;
    $("sealtext").hidden = !s.sealed;
    $("sealhow").hidden = !s.sealed;
    $("sealdown").hidden = !!s.sealed;
    $("check").hidden = !s.sealed;
    $("verdict").textContent = "";
  }

  function current() {
    var p = Math.floor(at / size);
    return parts[p] ? parts[p].steps[at - p * size] : null;
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = root.dataset.play;
  }

  function begin() {
    if (at >= total - 1) { show(0); }
    play.textContent = root.dataset.pause;
    timer = setInterval(function () {
      if (at >= total - 1) { stop(); return; }
      show(at + 1);
    }, 900);
  }

  play.addEventListener("click", function () { if (timer === null) { begin(); } else { stop(); } });
  $("back").addEventListener("click", function () { stop(); show(at - 1); });
  $("next").addEventListener("click", function () { stop(); show(at + 1); });
  scrub.addEventListener("input", function () { stop(); show(Number(scrub.value) - 1); });

  // The seal: sha256 of "high-low:salt" against the digest shown when the cup went down.
  $("check").addEventListener("click", function () {
    var s = current(), verdict = $("verdict");
    if (!s) { return; }
    if (!window.crypto || !window.crypto.subtle) { verdict.textContent = "sha256: " + s.sealed; return; }
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(s.sealed)).then(function (buf) {
      var hex = Array.prototype.map.call(new Uint8Array(buf), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      verdict.textContent = hex === s.digest ? root.dataset.ok : root.dataset.bad;
      verdict.className = hex === s.digest ? "ok" : "bad";
    });
  });

  show(start);
})();
