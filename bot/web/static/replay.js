// The replay's controls (README, Web companion: Replays): every step's text arrives
// already escaped by the server, in the page's own JSON; this only shows one at a time.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var steps = JSON.parse(document.getElementById("steps").textContent);
  if (!root || !steps.length) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var scrub = $("scrub"), play = $("play"), at = 0, timer = null;

  function show(n) {
    at = Math.max(0, Math.min(steps.length - 1, n));
    var s = steps[at];
    scrub.value = String(at + 1);
    $("where").textContent = s.where;
    $("round").innerHTML = s.round;
    $("claim").innerHTML = s.claim;
    $("cup").textContent = s.cup;
    $("move").innerHTML = s.move;
    var lines = "";
    for (var i = 0; i < s.lines.length; i++) { lines += "<li>" + s.lines[i] + "</li>"; }
    $("lines").innerHTML = lines;
    var rows = "";
    for (var j = 0; j < s.seats.length; j++) {
      var seat = s.seats[j];
      rows += "<tr" + (seat[3] ? " class=\"out\"" : "") + "><td>" + seat[0] + "</td><td>" +
        seat[1] + "</td><td>" + seat[2] + "</td></tr>";
    }
    $("seats").innerHTML = rows;
    var seal = $("seal");
    seal.hidden = !s.digest;
    $("digest").textContent = s.digest;
    $("sealtext").textContent = s.sealed;
    $("sealtext").hidden = !s.sealed;
    $("check").hidden = !s.sealed;
    $("verdict").textContent = "";
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = root.dataset.play;
  }

  function start() {
    if (at >= steps.length - 1) { show(0); }
    play.textContent = root.dataset.pause;
    timer = setInterval(function () {
      if (at >= steps.length - 1) { stop(); return; }
      show(at + 1);
    }, 900);
  }

  play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  $("back").addEventListener("click", function () { stop(); show(at - 1); });
  $("next").addEventListener("click", function () { stop(); show(at + 1); });
  scrub.addEventListener("input", function () { stop(); show(Number(scrub.value) - 1); });

  // The seal: sha256 of "high-low:salt" against the digest shown when the cup went down.
  $("check").addEventListener("click", function () {
    var s = steps[at], verdict = $("verdict");
    if (!window.crypto || !window.crypto.subtle) { verdict.textContent = "sha256: " + s.sealed; return; }
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(s.sealed)).then(function (buf) {
      var hex = Array.prototype.map.call(new Uint8Array(buf), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      verdict.textContent = hex === s.digest ? root.dataset.ok : root.dataset.bad;
      verdict.className = hex === s.digest ? "ok" : "bad";
    });
  });

  show(0);
})();
