// locksim timeline: lays out every .lsm-tl figure of the page at the width
// it is shown, in scenario seconds; zoom (buttons, + and -, Ctrl or Shift
// and the wheel, a two-finger pinch) and pan (drag, the arrow buttons)
// change the seconds shown, for every figure of one data-sync group at once; hovering (or
// focusing) a shape shows its tip; labels that would overprint another
// move (placeLabels).
(function () {
  "use strict";
  var figs = [];
  var SLANT = 5, CUT = 0.62, SAME = 0.46, BAR = 0.22, LOSTEND = 0.32, NOREP = 0.40, TOP = 30, AXIS = 44, LANEW = 150, PADR = 12;

  function num(el, k, d) { var v = el.getAttribute(k); return v === null ? d : parseFloat(v); }

  function laneH(fig) {
    var v = parseFloat(getComputedStyle(fig).getPropertyValue("--lsm-lane"));
    return v > 0 ? v : 52;
  }

  function nice(a, z) {
    var span = z - a, out = [];
    if (!(span > 0)) { return out; }
    var step = Math.pow(10, Math.floor(Math.log10(span / 10)));
    var fs = [1, 2, 5, 10];
    for (var i = 0; i < fs.length; i++) { if (span / (step * fs[i]) <= 12) { step *= fs[i]; break; } }
    for (var v = Math.ceil(a / step) * step; v <= z + step * 1e-9; v += step) {
      out.push(+v.toFixed(9));
    }
    return out;
  }

  // fmt writes scenario seconds as the page's language writes numbers
  // (the figure's data-comma: a decimal comma).
  function fmt(v, comma) {
    var s = (Math.round(v * 1000) / 1000).toString();
    return comma ? s.replace(".", ",") : s;
  }

  function arrowPath(x0, y0, x1, y1, cut) {
    var f = function (v) { return (Math.round(v * 10) / 10).toString(); };
    var d = "M" + f(x0) + "," + f(y0) + "L" + f(x1) + "," + f(y1);
    if (cut) {
      var r = 5;
      return d + "M" + f(x1 - r) + "," + f(y1 - r) + "L" + f(x1 + r) + "," + f(y1 + r) +
        "M" + f(x1 - r) + "," + f(y1 + r) + "L" + f(x1 + r) + "," + f(y1 - r);
    }
    var ang = Math.atan2(y1 - y0, x1 - x0), hl = 8;
    var ax = x1 - hl * Math.cos(ang - 0.45), ay = y1 - hl * Math.sin(ang - 0.45);
    var bx = x1 - hl * Math.cos(ang + 0.45), by = y1 - hl * Math.sin(ang + 0.45);
    return d + "M" + f(ax) + "," + f(ay) + "L" + f(x1) + "," + f(y1) + "L" + f(bx) + "," + f(by);
  }

  function Fig(el) {
    this.el = el;
    this.svg = el.querySelector("svg.lsm-svg");
    this.plot = this.svg.querySelector("svg.plot");
    this.tip = el.querySelector(".lsm-tip");
    this.range = el.querySelector(".lsm-range");
    this.a0 = num(el, "data-start", 0);
    this.z0 = num(el, "data-end", 1);
    this.a = this.a0; this.z = this.z0;
    this.lanes = num(el, "data-lanes", 1);
    this.sync = el.getAttribute("data-sync") || "";
    this.comma = el.getAttribute("data-comma") === "1";
    this.shapes = Array.prototype.slice.call(this.plot.querySelectorAll("[data-x0]"));
    this.labels = Array.prototype.slice.call(this.plot.querySelectorAll("text[data-x]"));
    this.laneEls = Array.prototype.slice.call(this.svg.querySelectorAll(".lanes [data-l]"));
    this.widths = null;
    var self = this;
    el.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-z]");
      if (!b) { return; }
      var k = b.getAttribute("data-z"), span = self.z - self.a, mid = (self.a + self.z) / 2;
      if (k === "in") { self.zoomTo(mid, 0.5); }
      if (k === "out") { self.zoomTo(mid, 2); }
      if (k === "left") { self.setDomain(self.a - span * 0.25, self.z - span * 0.25); }
      if (k === "right") { self.setDomain(self.a + span * 0.25, self.z + span * 0.25); }
      if (k === "reset") { self.setDomain(self.a0, self.z0); }
    });
    this.svg.addEventListener("wheel", function (e) {
      if (!(e.ctrlKey || e.shiftKey || e.altKey)) { return; }
      e.preventDefault();
      self.zoomTo(self.secAt(e.clientX), e.deltaY > 0 ? 1.25 : 0.8);
    }, { passive: false });
    // Drag pans; two fingers (touch pointers) pinch to zoom about their
    // midpoint and pan as it moves.
    var drag = null, touches = {}, pinch = null;
    var two = function () {
      var ids = Object.keys(touches);
      return ids.length === 2 ? [touches[ids[0]], touches[ids[1]]] : null;
    };
    this.svg.addEventListener("pointerdown", function (e) {
      if (e.pointerType === "touch") {
        touches[e.pointerId] = e.clientX;
        var p = two();
        if (p) {
          pinch = { d: Math.abs(p[0] - p[1]), a: self.a, z: self.z, at: self.secAt((p[0] + p[1]) / 2) };
          drag = null;
          return;
        }
      }
      if (e.button !== 0) { return; }
      drag = { x: e.clientX, a: self.a, z: self.z, moved: false };
    });
    window.addEventListener("pointermove", function (e) {
      if (touches[e.pointerId] !== undefined) { touches[e.pointerId] = e.clientX; }
      var p = pinch && two();
      if (p) {
        var d = Math.abs(p[0] - p[1]);
        if (d < 8 || pinch.d < 8) { return; }
        var span = (pinch.z - pinch.a) * pinch.d / d, r = self.svg.getBoundingClientRect();
        var frac = ((p[0] + p[1]) / 2 - r.left - LANEW) / self.plotW();
        self.setDomain(pinch.at - frac * span, pinch.at - frac * span + span);
        e.preventDefault();
        return;
      }
      if (!drag) { return; }
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) { drag.moved = true; }
      if (!drag.moved) { return; }
      var ds = dx / self.plotW() * (drag.z - drag.a);
      self.setDomain(drag.a - ds, drag.z - ds);
    });
    var lift = function (e) {
      delete touches[e.pointerId];
      if (!two()) { pinch = null; }
      drag = null;
    };
    window.addEventListener("pointerup", lift);
    window.addEventListener("pointercancel", lift);
    this.svg.addEventListener("keydown", function (e) {
      var span = self.z - self.a;
      if (e.key === "+" || e.key === "=") { self.zoomTo((self.a + self.z) / 2, 0.5); e.preventDefault(); }
      if (e.key === "-") { self.zoomTo((self.a + self.z) / 2, 2); e.preventDefault(); }
      if (e.key === "0") { self.setDomain(self.a0, self.z0); e.preventDefault(); }
      if (e.key === "ArrowLeft") { self.setDomain(self.a - span * 0.2, self.z - span * 0.2); e.preventDefault(); }
      if (e.key === "ArrowRight") { self.setDomain(self.a + span * 0.2, self.z + span * 0.2); e.preventDefault(); }
    });
    var show = function (t, x, y) {
      if (!self.tip) { return; }
      self.tip.textContent = t.getAttribute("data-tip");
      self.tip.hidden = false;
      var r = self.el.getBoundingClientRect();
      var left = x - r.left + 14, top = y - r.top + 16;
      var w = self.tip.offsetWidth;
      if (left + w > r.width) { left = Math.max(0, r.width - w); }
      self.tip.style.left = left + "px";
      self.tip.style.top = top + "px";
    };
    this.svg.addEventListener("pointerover", function (e) {
      var t = e.target.closest("[data-tip]");
      if (t && self.svg.contains(t)) { show(t, e.clientX, e.clientY); }
    });
    this.svg.addEventListener("pointermove", function (e) {
      var t = e.target.closest("[data-tip]");
      if (t && !self.tip.hidden) { show(t, e.clientX, e.clientY); }
    });
    this.svg.addEventListener("pointerout", function (e) {
      var t = e.target.closest("[data-tip]");
      if (t && self.tip) { self.tip.hidden = true; }
    });
    this.svg.addEventListener("focusin", function (e) {
      var t = e.target.closest("[data-tip]");
      if (t) { var b = t.getBoundingClientRect(); show(t, b.right, b.bottom); }
    });
  }

  Fig.prototype.width = function () { return Math.max(320, this.svg.getBoundingClientRect().width || 1400); };
  Fig.prototype.plotW = function () { return this.width() - LANEW - PADR; };
  Fig.prototype.secAt = function (clientX) {
    var r = this.svg.getBoundingClientRect();
    var px = clientX - r.left - LANEW;
    return this.a + px / this.plotW() * (this.z - this.a);
  };
  Fig.prototype.zoomTo = function (at, f) {
    var a = at - (at - this.a) * f, z = at + (this.z - at) * f;
    this.setDomain(a, z);
  };
  Fig.prototype.setDomain = function (a, z, fromSync) {
    var full = this.z0 - this.a0, span = Math.min(Math.max(z - a, full / 2000), full);
    if (a < this.a0) { a = this.a0; }
    if (a + span > this.z0) { a = this.z0 - span; }
    this.a = a; this.z = a + span;
    this.layout();
    if (this.sync && !fromSync) {
      var self = this;
      figs.forEach(function (g) { if (g !== self && g.sync === self.sync) { g.setDomain(self.a, self.z, true); } });
    }
  };

  Fig.prototype.layout = function () {
    var W = this.width(), LH = laneH(this.el), n = this.lanes, comma = this.comma;
    var H = TOP + LH * n + AXIS, pw = W - LANEW - PADR, a = this.a, z = this.z;
    var X = function (s) { return (s - a) / (z - a) * pw; };
    var Y = function (l) { return l < 0 ? TOP / 2 : TOP + (l + 0.5) * LH; };
    this.svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    this.svg.style.height = H + "px";
    this.plot.setAttribute("width", pw + PADR);
    this.plot.setAttribute("height", H);
    this.laneEls.forEach(function (el) {
      var l = num(el, "data-l", 0);
      if (el.tagName === "rect") {
        el.setAttribute("y", TOP + l * LH); el.setAttribute("height", LH); el.setAttribute("width", pw);
      } else {
        el.setAttribute("y", Y(l) + num(el, "data-dy", 0) * LH + 6);
      }
    });
    var axisName = this.svg.querySelector(".axis-name");
    if (axisName) { axisName.setAttribute("x", LANEW + pw / 2); axisName.setAttribute("y", H - 6); }
    // Ticks.
    var ticks = this.plot.querySelector(".ticks");
    var html = "";
    nice(a, z).forEach(function (v) {
      if (v < 0) { return; } // the padding before t=0
      var x = X(v).toFixed(1);
      html += '<g class="tick"><line x1="' + x + '" x2="' + x + '" y1="' + TOP + '" y2="' + (H - AXIS) + '"/><text x="' + x + '" y="' + (H - AXIS + 20) + '" text-anchor="middle">' + fmt(v, comma) + "</text></g>";
    });
    ticks.innerHTML = html;
    this.shapes.forEach(function (el) {
      var l = num(el, "data-l", 0), l2 = num(el, "data-l2", l);
      var x0 = num(el, "data-x0", 0), x1 = num(el, "data-x1", x0);
      var y0 = num(el, "data-y0", 0), y1 = num(el, "data-y1", y0);
      var cl = el.classList;
      if (cl.contains("m")) {
        el.setAttribute("transform", "translate(" + X(x0).toFixed(1) + "," + (Y(l) + y0 * LH).toFixed(1) + ")");
      } else if (cl.contains("s-msg")) {
        var ya = Y(l), yb = Y(l2), dir = yb < ya ? -1 : 1;
        var p0y = ya + dir * 0.22 * LH, p1y = yb - dir * 0.22 * LH, p0x = X(x0), p1x = X(x1), cut = false;
        var lost = cl.contains("m-lost"), norep = cl.contains("m-norep");
        if (cl.contains("m-cmd") && x0 === x1) { p0x -= SLANT; }
        if (cl.contains("m-reply") && x0 === x1) { p1x += SLANT; }
        if (lost || norep) { p1x = p0x + SLANT; p1y = yb - dir * CUT * LH; cut = true; }
        if (l === l2) { // kept on the node's lane, never leaving it (arrowOffsets)
          p0y = ya - SAME * LH; p1y = ya - BAR * LH;
          if (lost) { p1y = ya - LOSTEND * LH; }
          if (norep) { p0y = ya - BAR * LH; p1y = ya - NOREP * LH; }
        }
        var d = arrowPath(p0x, p0y, p1x, p1y, cut);
        var ps = el.querySelectorAll("path");
        for (var i = 0; i < ps.length; i++) { ps[i].setAttribute("d", d); }
      } else if (el.tagName === "line") {
        el.setAttribute("x1", X(x0)); el.setAttribute("x2", X(x1));
        el.setAttribute("y1", Y(l) + y0 * LH); el.setAttribute("y2", Y(l) + y1 * LH);
      } else {
        var rx0 = X(x0), rx1 = Math.max(X(x1), rx0 + 2);
        var ry0 = Y(l) + y0 * LH, ry1 = Y(l2) + y1 * LH;
        if (rx1 < -10) { rx0 = -20; rx1 = -10; }
        if (rx0 > pw + 20) { rx0 = pw + 20; rx1 = pw + 30; }
        el.setAttribute("x", Math.max(rx0, -10).toFixed(1));
        el.setAttribute("width", (Math.min(rx1, pw + 20) - Math.max(rx0, -10)).toFixed(1));
        el.setAttribute("y", ry0.toFixed(1)); el.setAttribute("height", (ry1 - ry0).toFixed(1));
      }
    });
    this.placeLabels(X, Y, LH, pw);
    if (this.range) { this.range.textContent = "t=" + fmt(Math.max(a, 0), this.comma) + "s – t=" + fmt(z, this.comma) + "s"; }
  };

  // placeLabels places every label (labels.go's layLabels, the same
  // steps): higher priority first, then left to right; a label that would
  // overprint another moves to a row above or below it inside its lane,
  // then slides along those rows by at most its own width; words that do
  // not fit their bar go beside it, under it (class "out"), from its start
  // or not at all, and a lane's words of one style so set are all shown or
  // none; a label never covers another's point mark; words the lane
  // already shows take their own place or none. Only a label outside the
  // seconds shown, or with no room near its mark, is hidden.
  Fig.prototype.placeLabels = function (X, Y, LH, pw) {
    var ls = this.labels;
    if (!this.widths) {
      this.widths = ls.map(function (t) { t.setAttribute("visibility", "visible"); return t.getComputedTextLength(); });
    }
    var w = this.widths;
    var order = ls.map(function (_, i) { return i; });
    order.sort(function (i, j) {
      var pi = num(ls[i], "data-prio", 0), pj = num(ls[j], "data-prio", 0);
      return pi !== pj ? pj - pi : num(ls[i], "data-x", 0) - num(ls[j], "data-x", 0);
    });
    if (!this.bars) {
      // The lanes' key and hold bars: words set beside a short bar must
      // not lie over another (labelRoom.bars).
      var bars = this.bars = {};
      this.shapes.forEach(function (e) {
        var c = e.classList, x1 = e.getAttribute("data-x1");
        if (x1 !== null && (c.contains("s-key") || c.contains("s-hold") || c.contains("s-believed"))) {
          var l = e.getAttribute("data-l");
          (bars[l] = bars[l] || []).push([num(e, "data-x0", 0), parseFloat(x1)]);
        }
      });
    }
    if (!this.marks) {
      // The lanes' point marks (writes), which no other label may cover
      // (labelRoom.marks); the radius of each kind is markSize's.
      var marks = this.marks = {}, radius = { "s-w-bad": 10, "s-w-ref": 8, "s-w-ok": 7, "s-w-oth": 5, "s-w-unk": 8 };
      this.shapes.forEach(function (e) {
        if (!e.classList.contains("m")) { return; }
        for (var k in radius) {
          if (e.classList.contains(k)) {
            var l = e.getAttribute("data-l");
            (marks[l] = marks[l] || []).push([num(e, "data-x0", 0), num(e, "data-y0", 0), radius[k]]);
          }
        }
      });
    }
    var laneBars = this.bars, laneMarks = this.marks;
    function overBar(l, own0, width, b) {
      var bs = laneBars[l] || [];
      for (var k = 0; k < bs.length; k++) {
        if (Math.abs(bs[k][0] - own0) < 1e-4 && Math.abs(bs[k][1] - own0 - width) < 1e-4) { continue; }
        if (b[0] < X(bs[k][1]) && X(bs[k][0]) < b[2]) { return true; }
      }
      return false;
    }
    var hgt = 19, step = hgt + 1, kept = [], said = {}, failed = {}, drop = {};
    function boxOf(p, wi) { var x0 = p.mid ? p.x - wi / 2 : p.x; return [x0 - 2, p.y - hgt / 2, x0 + wi + 2, p.y + hgt / 2]; }
    function over(b, q) { return b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3]; }
    function hit(b, l, s) {
      for (var k = 0; k < kept.length; k++) {
        if (over(b, kept[k])) { return kept[k]; }
      }
      var ms = l < 0 ? [] : laneMarks[l] || [];
      for (var m = 0; m < ms.length; m++) {
        if (Math.abs(ms[m][0] - s) < 1e-4) { continue; } // its own
        var mx = X(ms[m][0]), my = Y(l) + ms[m][1] * LH, r = ms[m][2], mb = [mx - r, my - r, mx + r, my + r];
        if (over(b, mb)) { return mb; }
      }
      return null;
    }
    function place(i) {
      var t = ls[i], l = num(t, "data-l", 0), s = num(t, "data-x", 0), wi = w[i];
      var fit = t.getAttribute("data-fit"), width = fit === null ? 0 : parseFloat(fit);
      var mid = t.getAttribute("data-mid") === "1" || (t.getAttribute("data-mid") === null && t.getAttribute("text-anchor") === "middle");
      t.setAttribute("data-mid", mid ? "1" : "0");
      var p = { x: X(s), y: Y(l) + num(t, "data-dy", 0) * LH, mid: mid, out: false };
      if (width > 0 && X(s + width) - X(s) < wi + 8) {
        p.out = true; p.mid = false;
        if (mid) { p.x = X(s - width / 2); }
        p.y = Y(l) + 0.36 * LH;
      }
      if (!p.mid) { p.x += 2; }
      if (l < 0 && p.x + wi + 4 > pw) { p.x = Math.max(0, pw - wi - 4); } // a violation's words end at the plot's edge
      else if (!p.mid && width === 0 && p.x + wi + 4 > pw + PADR) { p.x -= wi + 8; } // words of a mark at the right edge go to its left
      var own0 = mid ? s - width / 2 : s, box = boxOf(p, wi), ok = true, group = l + "|" + t.getAttribute("class").replace(/ ?out/, "");
      var pin = t.getAttribute("data-pin") === "1", key = l + "|" + t.textContent, repeat = l >= 0 && !!said[key]; // each violation band keeps its words
      // Beside its bar over another bar, or past the plot: none (set left
      // of the bar they read as a key held there, reader 11).
      if (p.out && (overBar(l, own0, width, box) || box[2] > pw + PADR + 2)) { ok = false; if (!pin) { failed[group] = true; } }
      else if (drop[group] && p.out && !pin) { ok = false; } // a lane's words beside their bars: all or none
      ok = ok && box[2] >= 0 && box[0] <= pw;
      if (ok) {
        var lo = Y(l) - LH / 2 - hgt / 4, hi = Y(l) + LH / 2 + hgt / 4, rows = [0];
        if (l < 0) { lo = 0; hi = Y(0); }
        for (var k = 1; !repeat && k * step <= hi - lo; k++) {
          [k * step, -k * step].forEach(function (d) { if (box[1] + d >= lo && box[3] + d <= hi) { rows.push(d); } });
        }
        var at = function (dy, slide) {
          var q = { x: p.x, y: p.y + dy, mid: p.mid, out: p.out };
          if (!slide) { return hit(boxOf(q, wi), l, s) || (q.out && overBar(l, own0, width, boxOf(q, wi))) ? null : q; }
          for (var dir = 1; dir >= -1; dir -= 2) {
            var r = { x: q.x, y: q.y, mid: q.mid, out: q.out };
            for (;;) {
              var rb = boxOf(r, wi), b = hit(rb, l, s);
              if (!b) { if (r.out && overBar(l, own0, width, rb)) { break; } return r; }
              r.x += dir > 0 ? b[2] - rb[0] + 1 : -(rb[2] - b[0] + 1);
              rb = boxOf(r, wi);
              if (Math.abs(r.x - q.x) > wi + 8 || rb[2] > pw + PADR || rb[0] < 0) { break; }
            }
          }
          return null;
        };
        var found = null, slides = pin || p.out || repeat ? 1 : 2; // pinned, beside its bar or said already: never slides (Label.Pin)
        for (var si = 0; !found && si < slides; si++) {
          for (var di = 0; !found && di < rows.length; di++) { found = at(rows[di], si === 1); }
        }
        if (found) { p = found; kept.push(boxOf(p, wi)); said[key] = true; } else { ok = false; if (p.out && !pin) { failed[group] = true; } } // the picture is full
      }
      t.setAttribute("x", p.x.toFixed(1)); t.setAttribute("y", p.y.toFixed(1));
      if (p.mid) { t.setAttribute("text-anchor", "middle"); } else { t.removeAttribute("text-anchor"); }
      t.classList.toggle("out", p.out);
      t.setAttribute("visibility", ok ? "visible" : "hidden");
    }
    for (var pass = 0; pass < 8; pass++) {
      kept = []; said = {}; failed = {};
      order.forEach(place);
      var more = false;
      for (var g in failed) { if (!drop[g]) { drop[g] = more = true; } }
      if (!more) { break; }
    }
  };

  function init() {
    var els = document.querySelectorAll("figure.lsm-tl");
    for (var i = 0; i < els.length; i++) { figs.push(new Fig(els[i])); }
    // A sync group shares one axis: the widest range of its members.
    var groups = {};
    figs.forEach(function (f) {
      if (!f.sync) { return; }
      var g = groups[f.sync] || (groups[f.sync] = { a: f.a0, z: f.z0 });
      g.a = Math.min(g.a, f.a0); g.z = Math.max(g.z, f.z0);
    });
    figs.forEach(function (f) {
      if (f.sync) { f.a0 = f.a = groups[f.sync].a; f.z0 = f.z = groups[f.sync].z; }
    });
    figs.forEach(function (f) { f.layout(); });
    // Lay out again whenever a figure's width changes (the first layout
    // may run before the page has its width).
    if (window.ResizeObserver) {
      figs.forEach(function (f) {
        var last = 0;
        new ResizeObserver(function () {
          var w = Math.round(f.svg.getBoundingClientRect().width);
          if (w > 0 && w !== last) { last = w; requestAnimationFrame(function () { f.layout(); }); }
        }).observe(f.el);
      });
    }
    window.addEventListener("load", function () { figs.forEach(function (f) { f.layout(); }); });
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(function () { figs.forEach(function (f) { f.layout(); }); }, 100);
    });
    window.addEventListener("beforeprint", function () { figs.forEach(function (f) { f.setDomain(f.a0, f.z0); }); });
    document.documentElement.setAttribute("data-lsm-ready", "1");
  }
  // attach lays out a figure added after the page loaded (a live run's
  // timeline, replaced as the run goes); figures no longer in the page are
  // let go.
  window.lsmTimeline = {
    attach: function (el) {
      figs = figs.filter(function (f) { return document.contains(f.el); });
      var f = new Fig(el);
      figs.push(f);
      f.layout();
      return f;
    }
  };
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
