// locksim serve: the live run page (its event stream, the fault buttons,
// predict-then-reveal, "Save as scenario") and the report frames. Served
// as a file: the pages allow no inline script.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";

  // A report shown in a frame takes the height of its page.
  function fit(frame) {
    var resize = function () {
      try {
        var doc = frame.contentDocument;
        if (doc && doc.documentElement) {
          frame.style.height = (doc.documentElement.scrollHeight + 8) + "px";
        }
      } catch (e) { /* another origin: keep the default height */ }
    };
    frame.addEventListener("load", function () {
      resize();
      try {
        if (window.ResizeObserver && frame.contentDocument) {
          new ResizeObserver(resize).observe(frame.contentDocument.documentElement);
        }
      } catch (e) { /* ignore */ }
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("iframe.report"), fit);

  var root = document.getElementById("run");
  if (!root) { return; }
  var id = root.getAttribute("data-id"), lang = root.getAttribute("data-lang");
  var owner = root.getAttribute("data-owner") === "true", predict = root.getAttribute("data-predict") === "true";
  var msg = function (k) { return root.getAttribute("data-m-" + k) || ""; };
  var $ = function (i) { return document.getElementById(i); };

  function post(what, fields) {
    var body = new URLSearchParams();
    Object.keys(fields || {}).forEach(function (k) { body.set(k, fields[k]); });
    return fetch("/run/" + id + "/" + what, {
      method: "POST", headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(), credentials: "same-origin"
    }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { throw new Error(j.error || r.statusText); } return j; });
    });
  }

  function problem(text) {
    var p = $("fault-msg");
    if (!p) { return; }
    p.textContent = text || "";
    p.hidden = !text;
  }

  // --- the state: status line, fault buttons, faults fired, the end.
  var state = root.getAttribute("data-state"), ended = false, rv = $("reveal");
  function showState(s) {
    state = s.state;
    root.setAttribute("data-state", s.state);
    var text = msg(s.state);
    if (s.state === "failed") { text = text.replace("%s", s.error || ""); }
    $("status-text").textContent = text;
    if (s.state !== "running") { $("now").textContent = ""; }
    var active = {};
    (s.active || []).forEach(function (a) { active[a.key] = a.id; });
    Array.prototype.forEach.call(document.querySelectorAll("#faults button[data-act]"), function (b) {
      var act = b.getAttribute("data-act"), c = b.getAttribute("data-client"), n = b.getAttribute("data-node");
      var running = s.state === "running";
      if (act === "pause") { b.disabled = !running || ("pause:" + c) in active; }
      if (act === "resume") { b.disabled = !running || !(("pause:" + c) in active); }
      if (act === "crash") { b.disabled = !running || ("crash:" + n) in active; }
      if (act === "restart") { b.disabled = !running || !(("crash:" + n) in active); }
      if (act === "jump") { b.disabled = !running || (n && ("crash:" + n) in active); }
      if (act === "cut" || act === "heal") { b.disabled = !running; }
    });
    var fired = $("fired");
    if (fired) {
      fired.textContent = "";
      (s.fired || []).forEach(function (f) {
        var li = document.createElement("li");
        li.textContent = "t=" + f.at_s.toFixed(1) + "s — " + f.action + " " + f.on + " (#" + f.id + ")" + (f.error ? ": " + f.error : "");
        fired.appendChild(li);
      });
      if (!fired.firstChild) { var li = document.createElement("li"); li.textContent = msg("none"); fired.appendChild(li); }
    }
    if (s.saved) { var sv = $("saved"); sv.textContent = msg("saved").replace("%s", s.saved); sv.hidden = false; }
    var badge = document.querySelector(".live-badge");
    if (badge) { badge.hidden = s.state === "done" || s.state === "failed"; }
    if (rv && s.state !== "waiting") { rv.hidden = true; }
    if (s.state === "done" && s.report && !ended) {
      ended = true;
      // The run ends in its full report, at this same address.
      $("live").hidden = true;
      $("done").hidden = false;
      var frame = $("report");
      if (frame.getAttribute("src") !== s.report) {
        fit(frame);
        frame.src = s.report;
      }
      reveal(s.answer);
    }
    if (s.state === "failed") { $("live").hidden = false; }
  }

  // --- a frame: the story and the timeline so far (the story first: it
  // is what the class reads, and the timeline's layout takes longer).
  function showFrame(f) {
    $("now").textContent = "t=" + f.now.toFixed(1) + "s";
    var ol = $("story");
    ol.textContent = "";
    (f.story || []).forEach(function (st) {
      var li = document.createElement("li");
      li.className = "k-" + st.kind + (st.info ? " info" : "");
      var t = document.createElement("span");
      t.className = "t";
      t.textContent = "t=" + st.t.toFixed(1) + "s";
      li.appendChild(t);
      li.appendChild(document.createTextNode(" " + st.text));
      ol.appendChild(li);
    });
    var tl = $("timeline");
    tl.innerHTML = f.timeline; // the server's SVG: its text is escaped there
    var fig = tl.querySelector("figure.lsm-tl");
    if (fig && window.lsmTimeline) { window.lsmTimeline.attach(fig); }
  }

  var source = null;
  function follow() {
    if (source) { return; }
    source = new EventSource("/run/" + id + "/events?lang=" + encodeURIComponent(lang));
    source.addEventListener("state", function (e) {
      var s = JSON.parse(e.data);
      showState(s);
      if (s.state === "done" || s.state === "failed") { source.close(); }
    });
    source.addEventListener("frame", function (e) { showFrame(JSON.parse(e.data)); });
  }

  // --- predict, then reveal: the hands stay in this page only.
  // asked: the class's hands were counted in this page (a page opened
  // later knows none of them: nothing is stored).
  var asked = false;
  function hands(k) { var i = $("hands-" + k); return i && i.value !== "" ? i.value : "0"; }
  function reveal(ans) {
    if (!predict || !ans) { return; }
    var box = $("verdict-answer");
    $("class-said").textContent = asked ? msg("class").replace("%1", hands("yes")).replace("%2", hands("no")).replace("%3", hands("depends")) : "";
    $("answer").textContent = msg(ans);
    box.hidden = false;
  }
  if (rv) {
    rv.addEventListener("click", function () {
      rv.disabled = true;
      asked = true;
      post("go").then(follow).catch(function (e) { rv.disabled = false; $("status-text").textContent = e.message; });
    });
  }

  // --- fault buttons.
  Array.prototype.forEach.call(document.querySelectorAll("#faults button[data-act]"), function (b) {
    b.addEventListener("click", function () {
      var act = b.getAttribute("data-act"), f = { action: act };
      if (b.getAttribute("data-link")) {
        f.client = $("f-lclient").value;
        f.node = $("f-lnode").value;
        f.direction = $("f-dir").value;
      } else {
        if (b.getAttribute("data-client")) { f.client = b.getAttribute("data-client"); }
        if (b.getAttribute("data-node")) { f.node = b.getAttribute("data-node"); }
      }
      if (act === "jump") {
        f.seconds = String((parseFloat($("f-delta").value) || 0) * parseFloat(b.getAttribute("data-sign")));
      } else if (act === "pause" || act === "cut" || act === "crash") {
        f.seconds = $("f-seconds").value || "0";
      }
      problem("");
      post("fault", f).catch(function (e) { problem(e.message); });
    });
  });
  var stop = $("stop");
  if (stop) { stop.addEventListener("click", function () { post("stop").catch(function (e) { problem(e.message); }); }); }
  var save = $("save");
  if (save) {
    save.addEventListener("click", function () {
      post("save").then(function (j) {
        var sv = $("saved");
        sv.textContent = msg("saved").replace("%s", j.path);
        sv.hidden = false;
      }).catch(function (e) { var sv = $("saved"); sv.textContent = e.message; sv.hidden = false; });
    });
  }

  $("status-text").textContent = msg(state);
  showState({ state: state, active: [], fired: [] });
  if (state !== "waiting" || !predict) { follow(); }
  if (state === "done" || state === "failed") { $("live").hidden = state === "done"; }
})();
