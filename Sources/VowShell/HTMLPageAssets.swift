/// The fixed parts of `HTMLPage`: its style, its markup and its script, which reads the run from
/// the page's `<script type="application/json" id="vow-data">` and draws the promise graph, the
/// turn stepper and the timeline. The script writes the run's text with `textContent` and SVG
/// attributes only, never as markup.
enum HTMLPageAssets {
    /// The page's CSS.
    static let style = #"""
    :root { --ok: #2e7d32; --ok-bg: #c8e6c9; --bad: #c62828; --bad-bg: #ffcdd2; --cancel: #b58900; --cancel-bg: #fff3a0;
            --pending: #757575; --pending-bg: #e6e6e6; --focus: #1565c0; --ink: #1d1d1f; --muted: #666; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fafafa; }
    header { display: flex; align-items: baseline; gap: 1em; padding: 8px 16px; background: #263238; color: #fff; }
    header h1 { font-size: 18px; margin: 0; }
    header #title { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
    header .hint { margin-left: auto; color: #b0bec5; font-size: 12px; }
    main { display: grid; grid-template-columns: minmax(0, 1fr) 390px; grid-template-rows: auto auto; gap: 12px; padding: 12px; }
    section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; min-width: 0; }
    h2 { font-size: 15px; margin: 0 0 6px; }
    h3 { font-size: 15px; margin: 8px 0 2px; }
    h4 { font-size: 12px; margin: 8px 0 2px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
    #graph-wrap { overflow: auto; max-height: 520px; }
    #timeline-panel, #twin-panel { grid-column: 1 / span 2; }
    #twin { margin: 0; font-size: 12px; max-height: 340px; overflow: auto; background: #f7f7f9; padding: 6px 0; }
    #twin .twin-line { display: block; padding: 0 8px; white-space: pre; }
    #twin .twin-line.runs { background: #fff3a0; box-shadow: inset 3px 0 0 var(--focus); }
    #timeline-wrap { overflow-x: auto; }
    .legend { font-size: 12px; color: var(--muted); display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 6px; }
    .legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 4px; vertical-align: -2px; border: 2px solid var(--c); background: var(--b); }
    .legend .l-ok { --c: var(--ok); --b: var(--ok-bg); } .legend .l-bad { --c: var(--bad); --b: var(--bad-bg); }
    .legend .l-cancel { --c: var(--cancel); --b: var(--cancel-bg); } .legend .l-pending { --c: var(--pending); --b: var(--pending-bg); }
    .legend .l-chain::before { border: 0; height: 2px; background: #555; vertical-align: 3px; }
    .legend .l-adopt::before { border: 0; height: 0; border-top: 2px dashed #1e88e5; vertical-align: 3px; border-radius: 0; }
    .legend .l-input::before { border: 0; height: 0; border-top: 2px dotted #8e24aa; vertical-align: 3px; border-radius: 0; }
    .legend .l-starts::before { border: 0; height: 0; border-top: 2px dashed #9e9e9e; vertical-align: 3px; border-radius: 0; }
    svg text { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; fill: var(--ink); }
    svg text.small { font-size: 10px; fill: var(--muted); }
    .node rect { stroke-width: 2; }
    .node.state-fulfilled rect { fill: var(--ok-bg); stroke: var(--ok); }
    .node.state-rejected rect { fill: var(--bad-bg); stroke: var(--bad); }
    .node.state-cancelled rect { fill: var(--cancel-bg); stroke: var(--cancel); }
    .node.state-pending rect { fill: var(--pending-bg); stroke: var(--pending); }
    .node.touched rect { stroke: var(--focus); stroke-width: 4; }
    .node.settled-now rect { stroke-dasharray: 5 3; stroke-width: 4; }
    .node.future, .edge.future { opacity: .18; }
    .edge { fill: none; stroke-width: 1.6; }
    .edge.chain { stroke: #555; }
    .edge.adopt { stroke: #1e88e5; stroke-dasharray: 6 4; }
    .edge.input { stroke: #8e24aa; stroke-dasharray: 2 3; }
    .edge.starts { stroke: #9e9e9e; stroke-dasharray: 3 3; }
    .controls { display: flex; align-items: center; gap: 8px; }
    .controls button { font: inherit; padding: 3px 10px; cursor: pointer; }
    #position { color: var(--muted); font-size: 12px; flex: 1; text-align: center; }
    #turn-title { margin: 2px 0; }
    #stepper ul, #stepper ol { margin: 0; padding-left: 20px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
    #stepper li.none { list-style: none; margin-left: -20px; color: var(--muted); font-family: inherit; }
    #stepper .internal { color: var(--muted); }
    #console { margin: 0; padding: 6px 8px; background: #1e1e1e; color: #e8e8e8; font-size: 12px; min-height: 1.4em; max-height: 14em; overflow: auto; white-space: pre-wrap; }
    #console .new { color: #ffd54f; }
    .options { margin-top: 10px; font-size: 12px; color: var(--muted); }
    .bar.fulfilled { fill: var(--ok); } .bar.rejected { fill: var(--bad); } .bar.cancelled { fill: var(--cancel); } .bar.pending { fill: var(--pending); }
    .axis { stroke: #999; } .tick { stroke: #bbb; } .now { fill: #1e88e5; fill-opacity: .12; stroke: var(--focus); stroke-width: 1; } .tick-label { fill: #777; }
    .row-band { fill: #f3f6fa; }
    """#

    /// The page's markup, filled by the script.
    static let body = #"""
    <header><h1>vow</h1><span id="title"></span><span class="hint">→ or Enter: next turn · ←: previous</span></header>
    <main>
    <section id="graph-panel">
    <h2>Promises</h2>
    <div class="legend"><span class="l-ok">fulfilled</span><span class="l-bad">rejected</span><span class="l-cancel">cancelled</span><span class="l-pending">pending</span><span class="l-chain">then (chained)</span><span class="l-adopt">adopts</span><span class="l-input">combinator input</span><span class="l-starts">started by a handler</span></div>
    <div id="graph-wrap"><svg id="graph" role="img" aria-label="the promise graph"></svg></div>
    </section>
    <section id="stepper" aria-live="polite">
    <h2>Turns</h2>
    <div class="controls"><button id="prev" type="button">← previous</button><span id="position"></span><button id="next" type="button">next →</button></div>
    <h3 id="turn-heading"></h3>
    <p id="turn-title"></p>
    <h4>What happened</h4><ul id="happened"></ul>
    <h4>Microtask queue after it</h4><ol id="microtasks"></ol>
    <h4>Task queue after it</h4><ol id="tasks"></ol>
    <h4>Timers not yet due</h4><ul id="timers"></ul>
    <h4>Still waiting</h4><ul id="waiting"></ul>
    <h4>Console (all output so far; this turn's in yellow)</h4><pre id="console"></pre>
    <label class="options"><input type="checkbox" id="as-of-turn"> colour promises as they were after this turn</label>
    </section>
    <section id="twin-panel" hidden>
    <h2>JavaScript twin <span class="hint">(what <code>vow --emit-js</code> writes; the line of the stage the turn runs is marked)</span></h2>
    <pre id="twin"></pre>
    </section>
    <section id="timeline-panel">
    <h2>Timeline</h2>
    <div id="timeline-wrap"><svg id="timeline" role="img" aria-label="the timeline"></svg></div>
    </section>
    </main>
    <noscript><p>The graph, the turns and the timeline are drawn by the page's script.</p></noscript>
    """#

    /// The page's script.
    static let script = #"""
    (function () {
      "use strict";
      var data = JSON.parse(document.getElementById("vow-data").textContent);
      var graph = document.getElementById("graph");
      var NS = graph.namespaceURI;
      function svg(name, attrs, parent) {
        var e = document.createElementNS(NS, name);
        for (var k in attrs) e.setAttribute(k, String(attrs[k]));
        if (parent) parent.appendChild(e);
        return e;
      }
      function text(parent, x, y, s, cls) {
        var t = svg("text", { x: x, y: y }, parent);
        if (cls) t.setAttribute("class", cls);
        t.textContent = s;
        return t;
      }
      function cut(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }
      function ms(micros) { return micros >= 10000 ? Math.round(micros / 1000) + "ms" : (micros / 1000).toFixed(1) + "ms"; }
      document.getElementById("title").textContent = data.title;

      // The graph: a node per promise, in columns by depth (the longest path from a promise
      // nothing leads to); a promise that only leads somewhere (a promise a handler returned)
      // sits one column left of what it leads to.
      var byId = {}, incoming = {}, outgoing = {};
      data.promises.forEach(function (p) { byId[p.id] = p; incoming[p.id] = []; outgoing[p.id] = []; });
      var edges = data.edges.filter(function (e) { return byId[e.from] && byId[e.to]; });
      edges.forEach(function (e) { incoming[e.to].push(e.from); outgoing[e.from].push(e.to); });
      var depth = {}, visiting = {};
      function depthOf(id) {
        if (id in depth) return depth[id];
        if (visiting[id]) return 0;
        visiting[id] = true;
        var d = 0;
        incoming[id].forEach(function (f) { d = Math.max(d, depthOf(f) + 1); });
        delete visiting[id];
        depth[id] = d;
        return d;
      }
      data.promises.forEach(function (p) { depthOf(p.id); });
      data.promises.forEach(function (p) {
        if (incoming[p.id].length === 0 && outgoing[p.id].length > 0) {
          var to = Math.min.apply(null, outgoing[p.id].map(function (t) { return depth[t]; }));
          depth[p.id] = Math.max(0, to - 1);
        }
      });
      var W = 190, H = 42, GX = 56, GY = 14, PAD = 12;
      var rowOf = {}, used = {}, rows = 0, cols = 0;
      data.promises.forEach(function (p) {
        var c = depth[p.id], desired = 0;
        var near = incoming[p.id].concat(outgoing[p.id]).filter(function (q) { return q in rowOf; });
        if (near.length) desired = rowOf[near[0]];
        used[c] = used[c] || {};
        var r = desired;
        while (used[c][r]) r++;
        used[c][r] = true;
        rowOf[p.id] = r;
        rows = Math.max(rows, r + 1);
        cols = Math.max(cols, c + 1);
      });
      function pos(id) { return { x: PAD + depth[id] * (W + GX), y: PAD + rowOf[id] * (H + GY) }; }
      // Wider than its panel, the graph is scaled down to fit, to no less than 75%; then it scrolls.
      var gw = PAD * 2 + Math.max(1, cols) * (W + GX) - GX, gh = PAD * 2 + Math.max(1, rows) * (H + GY) - GY;
      var room = document.getElementById("graph-wrap").clientWidth || gw;
      var scale = Math.min(1, Math.max(0.75, room / gw));
      graph.setAttribute("viewBox", "0 0 " + gw + " " + gh);
      graph.setAttribute("width", Math.floor(gw * scale));
      graph.setAttribute("height", Math.floor(gh * scale));
      var defs = svg("defs", {}, graph);
      [["chain", "#555"], ["adopt", "#1e88e5"], ["input", "#8e24aa"], ["starts", "#9e9e9e"]].forEach(function (m) {
        var marker = svg("marker", { id: "arrow-" + m[0], viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" }, defs);
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: m[1] }, marker);
      });
      var edgeEls = [];
      var edgeLayer = svg("g", {}, graph);
      edges.forEach(function (e) {
        var a = pos(e.from), b = pos(e.to);
        var x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
        var bend = Math.max(30, Math.abs(x2 - x1) / 2);
        var d = "M" + x1 + "," + y1 + " C" + (x1 + bend) + "," + y1 + " " + (x2 - bend) + "," + y2 + " " + x2 + "," + y2;
        var path = svg("path", { d: d, "class": "edge " + e.kind, "marker-end": "url(#arrow-" + e.kind + ")" }, edgeLayer);
        var title = svg("title", {}, path);
        title.textContent = e.kind === "adopt" ? "p" + e.to + " adopts p" + e.from : e.kind === "input" ? "p" + e.from + " is an input of p" + e.to :
          e.kind === "starts" ? "the handler of p" + e.from + " started p" + e.to : "p" + e.to + " is chained on p" + e.from;
        edgeEls.push({ el: path, edge: e });
      });
      var nodeEls = {};
      data.promises.forEach(function (p) {
        var at = pos(p.id);
        var g = svg("g", { "class": "node", transform: "translate(" + at.x + "," + at.y + ")" }, graph);
        g.setAttribute("data-id", p.id);
        svg("rect", { width: W, height: H, rx: 7, ry: 7 }, g);
        text(g, 8, 14, "p" + p.id + (p.name ? " · " + p.name : ""), "small");
        text(g, 8, 32, cut(p.label || p.name || "(a promise)", 25));
        var title = svg("title", {}, g);
        title.textContent = "p" + p.id + (p.name ? " (" + p.name + ")" : "") + (p.label ? ": " + p.label : "") + "\n" + p.state +
          (p.outcome !== null ? (p.state === "fulfilled" ? " with " : ": ") + p.outcome : "") +
          (p.settled !== null ? " after " + ms(p.settled - p.created) : "");
        nodeEls[p.id] = g;
      });

      // The timeline: a bar per stage promise from the turn it was made in to the turn it
      // settled in, the turns (as the stepper shows them) on the axis, the current one as a line.
      var tl = document.getElementById("timeline");
      var LW = 270, TW = 1100, RH = 20, top = 8;
      var steps = data.turns;
      // The column of a step number: the first shown turn whose "after" takes it in.
      function column(seq) {
        for (var i = 0; i < steps.length; i++) if (steps[i].upTo >= seq) return i;
        return steps.length - 1;
      }
      var ncol = Math.max(1, steps.length);
      function tx(c) { return LW + (TW - LW - 90) * c / ncol; }
      var axisY = top + data.timeline.length * RH + 6;
      tl.setAttribute("width", TW);
      tl.setAttribute("height", axisY + 40);
      if (data.timeline.length === 0) text(tl, 8, 20, "no stage promises were recorded");
      data.timeline.forEach(function (r, i) {
        var y = top + i * RH;
        if (i % 2 === 0) svg("rect", { x: 0, y: y, width: TW, height: RH, "class": "row-band" }, tl);
        text(tl, 6, y + 14, cut(r.label, 36));
        var from = column(r.createdTurn), to = r.settledTurn === null ? ncol : column(r.settledTurn) + 1;
        var bar = svg("rect", { x: tx(from), y: y + 4, width: Math.max(2, tx(to) - tx(from)), height: RH - 8, rx: 2, "class": "bar " + r.outcome }, tl);
        var title = svg("title", {}, bar);
        title.textContent = "p" + r.id + " " + r.label + ": " + r.outcome + (r.end === null ? "" : " after " + ms(r.end - r.start));
        var mark = { fulfilled: "✓", rejected: "✗", cancelled: "⊘", pending: "…" }[r.outcome];
        text(tl, tx(to) + 6, y + 14, mark + " " + (r.end === null ? "pending" : ms(r.end - r.start)));
      });
      svg("line", { x1: LW, y1: axisY, x2: TW - 90, y2: axisY, "class": "axis" }, tl);
      steps.forEach(function (t, c) {
        svg("line", { x1: tx(c), y1: axisY, x2: tx(c), y2: axisY + 6, "class": "tick" }, tl);
        if (ncol <= 60 || c % Math.ceil(ncol / 60) === 0) {
          var label = t.internal ? "v" : t.number === 0 ? "s" : String(t.number);
          text(tl, tx(c + 0.5), axisY + 18, label, "small tick-label").setAttribute("text-anchor", "middle");
        }
      });
      text(tl, TW - 90, axisY + 34, "turns (s: a start, v: vow's own step)", "small").setAttribute("text-anchor", "end");
      var nowLine = svg("rect", { x: LW, y: top, width: Math.max(2, tx(1) - tx(0)), height: axisY - top, "class": "now" }, tl);
      var nowText = text(tl, LW, axisY + 34, "", "small");

      // The twin: its lines, each stage's marker (/*@LINE:COLUMN*/) taken out and kept as the
      // line that stage is on.
      var twinLines = [], lineOfStage = {};
      if (typeof data.twin === "string") {
        document.getElementById("twin-panel").hidden = false;
        var pre = document.getElementById("twin");
        data.twin.split("\n").forEach(function (raw, i) {
          var line = raw.replace(/\/\*@(\d+):(\d+)\*\//g, function (m, l, c) {
            if (!(l + ":" + c in lineOfStage)) lineOfStage[l + ":" + c] = i;
            return "";
          });
          var span = document.createElement("span");
          span.className = "twin-line";
          span.textContent = line;
          pre.appendChild(span);
          twinLines.push(span);
        });
      }

      // The stepper: one turn at a time; the graph shows what the turn touched.
      var turns = data.turns, current = 0;
      var asOfTurn = document.getElementById("as-of-turn");
      function list(id, items) {
        var ul = document.getElementById(id);
        ul.textContent = "";
        if (items.length === 0) {
          var li = document.createElement("li");
          li.className = "none";
          li.textContent = "none";
          ul.appendChild(li);
        }
        items.forEach(function (s) {
          var li = document.createElement("li");
          li.textContent = s;
          ul.appendChild(li);
        });
      }
      function heading(t) {
        if (t.internal) return "vow's own step";
        if (t.number === 0) return "start";
        return "turn " + t.number + " · j" + t.job + ", a " + (t.task ? "task" : "microtask");
      }
      function show(i) {
        if (turns.length === 0) return;
        current = Math.max(0, Math.min(turns.length - 1, i));
        var t = turns[current];
        var stepper = document.getElementById("stepper");
        stepper.setAttribute("data-turn", t.internal ? "" : String(t.number));
        stepper.setAttribute("data-step", String(current + 1));
        var h = document.getElementById("turn-heading");
        h.textContent = heading(t);
        h.className = t.internal ? "internal" : "";
        document.getElementById("turn-title").textContent = t.title;
        document.getElementById("position").textContent = "step " + (current + 1) + " of " + turns.length;
        document.getElementById("prev").disabled = current === 0;
        document.getElementById("next").disabled = current === turns.length - 1;
        list("happened", t.happened);
        list("microtasks", t.microtasks);
        list("tasks", t.tasks);
        list("timers", t.timers);
        list("waiting", t.waiting);
        var out = document.getElementById("console");
        out.textContent = "";
        for (var k = 0; k <= current; k++) {
          turns[k].printed.forEach(function (line) {
            var span = document.createElement("span");
            if (k === current) span.className = "new";
            span.textContent = line + "\n";
            out.appendChild(span);
          });
        }
        data.promises.forEach(function (p) {
          var state = p.state;
          if (asOfTurn.checked && (p.settledTurn === null || p.settledTurn > t.upTo)) state = "pending";
          var cls = "node state-" + state;
          if (t.touched.indexOf(p.id) >= 0) cls += " touched";
          if (t.settled.indexOf(p.id) >= 0) cls += " settled-now";
          if (p.createdTurn > t.upTo) cls += " future";
          nodeEls[p.id].setAttribute("class", cls);
        });
        edgeEls.forEach(function (e) {
          var later = byId[e.edge.from].createdTurn > t.upTo || byId[e.edge.to].createdTurn > t.upTo;
          e.el.setAttribute("class", "edge " + e.edge.kind + (later ? " future" : ""));
        });
        twinLines.forEach(function (el) { el.classList.remove("runs"); });
        t.ranFor.forEach(function (id) {
          var p = byId[id];
          var at = p ? lineOfStage[p.line + ":" + p.column] : undefined;
          if (at !== undefined) {
            twinLines[at].classList.add("runs");
            var box = document.getElementById("twin");
            box.scrollTop = Math.max(0, twinLines[at].offsetTop - box.offsetTop - 60);
          }
        });
        nowLine.setAttribute("x", tx(current));
        nowText.setAttribute("x", tx(current));
        nowText.textContent = heading(t).split(" · ")[0] + " (" + ms(t.t) + " into the run)";
        var fragment = t.internal ? "#step=" + (current + 1) : "#turn=" + t.number;
        if (location.hash !== fragment) {
          try { history.replaceState(null, "", fragment); } catch (e) { /* a page without a history */ }
        }
      }
      function fromFragment() {
        var m = /^#(turn|step)=(\d+)$/.exec(location.hash);
        if (!m) return 0;
        var n = parseInt(m[2], 10);
        if (m[1] === "step") return n - 1;
        for (var i = 0; i < turns.length; i++) if (!turns[i].internal && turns[i].number === n) return i;
        return 0;
      }
      document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
      document.getElementById("next").addEventListener("click", function () { show(current + 1); });
      asOfTurn.addEventListener("change", function () { show(current); });
      document.addEventListener("keydown", function (e) {
        if (e.target && e.target.tagName === "BUTTON" && e.key === "Enter") return;
        if (e.key === "ArrowRight" || e.key === "Enter") { show(current + 1); e.preventDefault(); }
        else if (e.key === "ArrowLeft") { show(current - 1); e.preventDefault(); }
        else if (e.key === "Home") { show(0); e.preventDefault(); }
        else if (e.key === "End") { show(turns.length - 1); e.preventDefault(); }
      });
      window.addEventListener("hashchange", function () { show(fromFragment()); });
      show(fromFragment());
      document.body.setAttribute("data-ready", "yes");
    })();
    """#
}
