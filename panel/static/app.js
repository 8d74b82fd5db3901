// The Mark I operator panel: draws the state the server pushes and sends
// the controls back. No framework; canvases for the retina, A-units,
// curves and dials.
"use strict";

const $ = (id) => document.getElementById(id);
let layout = null;
let state = null;
let pending = null; // a state waiting for the next animation frame
window.mark1 = { get state() { return state; }, get layout() { return layout; }, updates: 0 };

// The server writes its request token into the page; every control sends
// it back, so that no other site can work the panel.
const token = document.querySelector('meta[name="mark1-token"]')?.content || "";

async function post(path, body) {
  const opts = { method: "POST", headers: { "X-Mark1-Token": token } };
  if (body instanceof Blob) {
    opts.body = body;
    opts.headers["Content-Type"] = "application/octet-stream";
  } else if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers["Content-Type"] = "application/json";
  }
  try {
    const res = await fetch(path, opts);
    const data = await res.json();
    if (!res.ok) {
      showError(data.error || res.statusText);
      return null;
    }
    receive(data);
    return data;
  } catch (e) {
    showError(String(e));
    return null;
  }
}

function showError(msg) {
  const m = $("message");
  m.textContent = msg;
  m.classList.add("error");
  document.body.dataset.error = msg;
}

async function loadLayout() {
  const res = await fetch("api/layout");
  layout = await res.json();
  const sel = $("task");
  sel.innerHTML = "";
  for (const t of layout.tasks) {
    const o = document.createElement("option");
    o.value = o.textContent = t;
    if (t === layout.task) o.selected = true;
    sel.appendChild(o);
  }
  const mode = $("mode");
  mode.innerHTML = "";
  for (const r of layout.rules) {
    const o = document.createElement("option");
    o.value = o.textContent = r;
    mode.appendChild(o);
  }
  const fb = $("forcebuttons");
  fb.innerHTML = "";
  layout.classes.forEach((c, i) => {
    const b = document.createElement("button");
    b.textContent = c;
    b.dataset.class = i;
    b.onclick = () => post("api/force", { class: i });
    fb.appendChild(b);
  });
  dialGeometry = null;
}

// lastSeq is the newest state seen, drawn or waiting: a control's answer
// can arrive after a newer state from the stream (the training loop's),
// and must not replace it.
let lastSeq = -1;

function receive(s) {
  if (s.seq < lastSeq) return; // an older answer than the stream's
  lastSeq = s.seq;
  pending = s;
  requestAnimationFrame(flush);
}

async function flush() {
  if (!pending) return;
  const s = pending;
  pending = null;
  if (!layout || s.layout !== layout.version) await loadLayout();
  state = s;
  window.mark1.updates++;
  render();
}

function render() {
  const s = state;
  const m = $("message");
  m.textContent = s.message || "";
  $("save").disabled = !s.can_save;
  $("save").title = s.can_save ? "Save the machine to the file given with mark1 serve --out" : "Saving is off: start the panel with mark1 serve --out FILE";
  m.classList.remove("error");
  delete document.body.dataset.error;
  // Epoch, card and pulses are in the counters below the title.
  $("status").textContent = (s.running ? "training" : "paused") + ` · ${s.at_stop} pots at an end stop · ` +
    `${s.recipe.rule}, ${s.recipe.values} system, ${s.recipe.pulses} pulse${s.recipe.pulses === 1 ? "" : "s"} per correction` +
    (s.status !== "running" ? ` · ${s.status}` : "");
  $("mode").value = s.recipe.rule;
  document.body.dataset.pulses = s.pulses;
  document.body.dataset.running = s.running;
  // Every control that cannot act now is disabled, its title saying why.
  const ended = `Training has ended (${s.summary}): the machine only answers now. Present cards or pictures, or press Continue training.`;
  const stepWhat = spontaneous(s) ? "One presentation: the machine's own response is reinforced (spontaneous learning: no labels)" : "One presentation with error correction";
  setControl("step", s.done || s.running, s.done ? ended : "Pause first: training is running", stepWhat);
  setControl("run", s.done || s.running, s.done ? ended : "Training is running", "Train continuously");
  setControl("pause", !s.running, "Training is not running", "Stop training");
  setControl("continue", !s.done, "Training has not ended: Step or Run trains the machine",
    "Train this machine further from where it stands, until its stopping rule is met again or its epoch limit more epochs have passed");
  setControl("present", false, "", "Show the deck's next training card: the machine answers, nothing is learned");
  $("cardno").max = s.cards;
  document.body.dataset.done = s.done;
  $("speed").value = s.delay_ms;
  $("speedval").textContent = s.delay_ms + " ms";
  drawCounters(s);
  drawRetina(s.retina);
  drawAUnits(s.retina);
  drawLamps(s.retina);
  drawCurves(s.history, spontaneous(s));
  drawDials(s);
  refreshMap(s);
}

// setControl enables or disables a control, its title saying what it does
// or why it cannot act now.
function setControl(id, off, why, what) {
  const el = $(id);
  el.disabled = off;
  el.title = off ? why : what;
}

// clock formats simulated machine seconds as the command line does: 2h40m40s.
function clock(sec) {
  sec = Math.round(sec);
  const h = Math.floor(sec / 3600), m = Math.floor((sec % 3600) / 60), x = sec % 60;
  if (h) return `${h}h${String(m).padStart(2, "0")}m${String(x).padStart(2, "0")}s`;
  if (m) return `${m}m${String(x).padStart(2, "0")}s`;
  return `${x}s`;
}

const pct = (v) => (100 * v).toFixed(1) + "%";

// heldOut is the number of held-out cards P_g is measured on, if the
// server says.
function heldOut(s) {
  return s.held_out !== undefined ? s.held_out : layout.held_out;
}

// spontaneous reports whether the machine learns by the spontaneous rule:
// no labels, so it is shown as clusters of the hidden classes (purity,
// responses used), not by mistakes, P_r and P_g.
function spontaneous(s) {
  return s.recipe.rule === "spontaneous";
}

// clusterWords says how the responses split the cards after an epoch.
function clusterWords(c, cards, n) {
  let t = `purity ${pct(c.purity)} of ${cards} training cards (chance ${pct(c.chance)}), ${c.responses} of ${c.of} responses used` +
    (c.collapsed ? ", collapsed to one" : "");
  if (c.test_purity !== undefined) t += ` · held-out purity ${pct(c.test_purity)} of ${n !== undefined ? n + " " : ""}cards (chance ${pct(c.test_chance)})`;
  return t;
}

function drawCounters(s) {
  const last = s.history.length ? s.history[s.history.length - 1] : null;
  // Once training has ended no epoch is under way: show the last one.
  const ended = last && s.done;
  $("c-epoch").textContent = ended ? `${last.epoch} (${s.status})` : `${s.epoch}` + (last ? ` (${last.epoch} done)` : "");
  // After a finished epoch ends the training, the epoch the server counts
  // is the next, never begun: the cards shown are the last epoch's, all.
  $("c-card").textContent = `${ended && s.card === 0 ? s.cards : s.card} of ${s.cards}`;
  $("c-time").textContent = clock(s.seconds);
  $("c-pulses").textContent = String(s.pulses);
  const n = heldOut(s);
  if (spontaneous(s)) {
    // No labels: the counters and the scores say how the responses split
    // the cards against the hidden classes.
    const c = last ? last.clusters : undefined;
    $("l-pr").textContent = "purity";
    $("l-pg").textContent = "held-out purity";
    $("l-pr").parentElement.title = "Spontaneous learning has no labels: how purely the machine's responses split the training cards, each response counted as its commonest hidden class, after the last complete epoch";
    $("l-pg").parentElement.title = "The same on the held-out cards";
    $("c-pr").textContent = c ? pct(c.purity) : "–";
    $("c-pg").textContent = c && c.test_purity !== undefined ? pct(c.test_purity) : "–";
    let sc = "no epoch finished yet: spontaneous learning has no labels; its responses are measured as clusters of the hidden classes";
    if (last) sc = c ? `after epoch ${last.epoch}: ` + clusterWords(c, s.cards, n) : `epoch ${last.epoch} was not trained spontaneously here: no clusters measured`;
    $("scores").textContent = sc;
    return;
  }
  $("l-pr").textContent = "P_r";
  $("l-pg").textContent = "P_g";
  $("l-pr").parentElement.title = "Accuracy on the training cards after the last complete epoch";
  $("l-pg").parentElement.title = "Accuracy on held-out cards the machine never trains on, after the last complete epoch";
  $("c-pr").textContent = last ? pct(last.p_r) : "–";
  $("c-pg").textContent = last && last.p_g !== undefined ? pct(last.p_g) : "–";
  let sc = "no epoch finished yet";
  if (last) {
    sc = `after epoch ${last.epoch}: P_r ${pct(last.p_r)} of ${s.cards} training cards · `;
    if (last.p_g !== undefined) sc += `P_g ${pct(last.p_g)} of ${n !== undefined ? n + " " : ""}held-out cards`;
    else sc += "P_g not measured (no held-out cards)";
  }
  $("scores").textContent = sc;
}

function drawRetina(r) {
  const c = $("retina"), g = c.getContext("2d");
  const w = layout.retina_width, h = layout.retina_height;
  const cell = Math.floor(Math.min(c.width / w, c.height / h));
  g.fillStyle = "#101114";
  g.fillRect(0, 0, c.width, c.height);
  for (let i = 0; i < w * h; i++) {
    const x = (i % w) * cell, y = Math.floor(i / w) * cell;
    const f = r ? r.field[i] : 0, on = r ? r.s[i] : 0;
    if (on > 0) {
      g.fillStyle = `rgba(255, 224, 102, ${0.35 + 0.65 * on})`;
    } else {
      const v = Math.round(30 + 60 * f);
      g.fillStyle = `rgb(${v}, ${v}, ${v + 6})`;
    }
    g.fillRect(x + 1, y + 1, cell - 2, cell - 2);
  }
  $("source").textContent = r ? r.source : "no card yet: present one, or drop a picture here";
  $("source").title = $("source").textContent;
}

const hues = ["#4ea8ff", "#ff9f40", "#5cd67a", "#ff6b8a", "#b98cff", "#ffe066", "#4fd8d0", "#e0e0e0"];

function drawAUnits(r) {
  const c = $("aunits"), g = c.getContext("2d");
  const n = layout.a_units, cols = 32, rows = Math.ceil(n / cols);
  const cell = Math.max(3, Math.floor(Math.min(c.width / cols, c.height / rows)));
  g.fillStyle = "#101114";
  g.fillRect(0, 0, c.width, c.height);
  const active = new Set(r ? r.active : []);
  for (let a = 0; a < n; a++) {
    const x = (a % cols) * cell, y = Math.floor(a / cols) * cell;
    const set = layout.source_set ? layout.source_set[a] : -1;
    const col = set >= 0 ? hues[set % hues.length] : "#ffe066";
    g.fillStyle = active.has(a) ? col : "#2e3036";
    g.fillRect(x + 1, y + 1, cell - 2, cell - 2);
  }
  const wired = layout.wiring && layout.wiring !== "random" ? ` · wiring ${layout.wiring}` : "";
  $("pa").textContent = (r ? `${r.active.length} of ${n} fired · P_a ${(100 * r.pa).toFixed(1)}%` : `${n} association units`) + wired;
  const lg = $("alegend");
  if (lg.dataset.version !== String(layout.version)) {
    lg.dataset.version = layout.version;
    lg.innerHTML = "";
    if (layout.source_set) {
      lg.append("Bright: fired · dim: silent. Colour: the R-unit the A-unit feeds (its source-set): ");
      layout.groups.forEach((grp, u) => {
        const k = document.createElement("span");
        k.className = "sw";
        k.style.background = hues[u % hues.length];
        lg.append(k, `R${u} `);
      });
    } else {
      const k = document.createElement("span");
      k.className = "sw";
      k.style.background = "#ffe066";
      lg.append(k, "fired · dark: silent (every A-unit feeds every R-unit)");
    }
  }
}

function wants(rUnit, cls) {
  // Mirrors response.Layer.Want: one R-unit per class, or the bits of the class.
  if (layout.code === "one-per-class") return rUnit === cls;
  return ((cls >> rUnit) & 1) === 1;
}

// winner returns the R-unit whose sum is largest, or -1 on a tie (as
// response.Layer.Decode does for one R-unit per class).
function winner(sums) {
  let best = 0, tie = false;
  for (let u = 1; u < sums.length; u++) {
    if (sums[u] > sums[best]) { best = u; tie = false; } else if (sums[u] === sums[best]) tie = true;
  }
  return tie ? -1 : best;
}

function drawLamps(r) {
  const box = $("lamps");
  box.innerHTML = "";
  const onePer = layout.code === "one-per-class";
  const win = r && onePer ? winner(r.sums) : -1;
  layout.groups.forEach((grp, u) => {
    const lamp = document.createElement("div");
    lamp.className = "lamp";
    const sum = r ? r.sums[u] : 0;
    if (r && sum > 0) lamp.classList.add("on");
    if (r && r.label >= 0 && !onePer && (sum > 0) !== wants(u, r.label)) lamp.classList.add("bad");
    const info = document.createElement("div");
    info.className = "lampinfo";
    const name = document.createElement("span");
    name.className = "lampname";
    name.textContent = grp.title;
    name.title = grp.title;
    const val = document.createElement("span");
    val.className = "sum";
    val.textContent = r ? (sum >= 0 ? "+" : "−") + Math.abs(sum).toFixed(3) : "";
    info.append(name, val);
    if (u === win) {
      info.classList.add("win");
      lamp.classList.add("win");
    }
    box.append(lamp, info);
  });
  drawRule(r, win);
  const ans = $("answer");
  if (!r) {
    ans.textContent = "–";
    return;
  }
  ans.innerHTML = "";
  ans.append("The machine says: ");
  const b = document.createElement("span");
  b.id = "prediction";
  b.textContent = r.class_name;
  ans.append(b);
  if (r.label >= 0 && spontaneous(state)) {
    // No labels: a response is the machine's own cluster, not a class
    // to be judged right or wrong by its number.
    const v = document.createElement("span");
    v.className = "hidden";
    v.textContent = `  (the card's hidden class: ${layout.classes[r.label]}; spontaneous learning never sees it)`;
    ans.append(v);
  } else if (r.label >= 0) {
    const v = document.createElement("span");
    const right = r.class === r.label;
    v.className = right ? "right" : "wrong";
    v.textContent = right ? "  ✓ right" : `  ✗ wrong: it is ${layout.classes[r.label]}`;
    ans.append(v);
  }
  for (const b of $("forcebuttons").children) {
    b.disabled = state.running;
    b.style.outline = r.label >= 0 && Number(b.dataset.class) === r.label ? "2px solid #ffb300" : "";
  }
}

// drawRule states how the lamps give the answer: the bits and the class
// they spell (binary code), or the largest sum (one R-unit per class).
function drawRule(r, win) {
  const el = $("rule");
  const n = layout.groups.length;
  if (layout.code === "one-per-class") {
    let t = "Rule: one R-unit per class; the largest sum wins, lit or not.";
    if (r) {
      t += win >= 0
        ? ` Largest: R${win} (${r.sums[win] >= 0 ? "+" : "−"}${Math.abs(r.sums[win]).toFixed(3)}) → ${layout.classes[win] !== undefined ? layout.classes[win] : "no class"}.`
        : " Two sums tie for the largest → no class.";
    }
    el.textContent = t;
    return;
  }
  let t = `Rule: binary code; each lamp is one bit (lit = sum > 0), R${n - 1} … R0 spell the class number.`;
  if (r) {
    const zero = r.sums.some((v) => v === 0);
    let code = 0, bits = "";
    for (let u = n - 1; u >= 0; u--) {
      const on = r.sums[u] > 0;
      bits += on ? "1" : "0";
      if (on) code |= 1 << u;
    }
    if (zero) t += ` A sum is exactly 0: that lamp is neither on nor off → no class.`;
    else if (code >= layout.classes.length) t += ` Lamps ${bits} = ${code}: no class has that number → no class.`;
    else t += ` Lamps ${bits} = ${code} → ${layout.classes[code]}.`;
  }
  el.textContent = t;
}

// niceStep returns a step of 1, 2 or 5 times a power of ten that cuts
// [0, max] into at most n intervals.
function niceStep(max, n) {
  const raw = max / n, p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

// chart draws lines over epochs on a canvas with labelled axes: series are
// {values, color} (null where not measured), y from 0 to yMax in steps of
// ystep.
function chart(c, epochs, series, yMax, ystep, yLabel, yFmt) {
  const g = c.getContext("2d");
  const W = c.width, H = c.height;
  const L = 46, R = 10, T = 8, B = 32; // margins: tick labels and axis titles
  const pw = W - L - R, ph = H - T - B;
  g.fillStyle = "#1f2124";
  g.fillRect(0, 0, W, H);
  g.font = "11px sans-serif";
  g.fillStyle = "#9a968c";
  g.strokeStyle = "#3a3e44";
  g.lineWidth = 1;
  // y axis: ticks, grid and title.
  g.textAlign = "right";
  const yticks = [];
  for (let v = 0; v <= yMax + 1e-9; v += ystep) {
    yticks.push(yFmt(v));
    const y = Math.round(T + ph - (v / yMax) * ph) + 0.5;
    g.beginPath(); g.moveTo(L, y); g.lineTo(L + pw, y); g.stroke();
    g.fillText(yFmt(v), L - 4, y + 4);
  }
  g.save();
  g.translate(11, T + ph / 2);
  g.rotate(-Math.PI / 2);
  g.textAlign = "center";
  g.fillText(yLabel, 0, 0);
  g.restore();
  // x axis: epochs.
  const n = epochs.length;
  const lo = n ? epochs[0] : 1, hi = n ? epochs[n - 1] : 1;
  const X = (e) => L + (hi === lo ? pw / 2 : ((e - lo) / (hi - lo)) * pw);
  g.textAlign = "center";
  const xstep = Math.max(1, niceStep(Math.max(1, hi - lo), 5));
  for (let e = Math.ceil(lo / xstep) * xstep; e <= hi; e += xstep) {
    const x = Math.round(X(e)) + 0.5;
    g.beginPath(); g.moveTo(x, T + ph); g.lineTo(x, T + ph + 4); g.stroke();
    g.fillText(String(e), x, T + ph + 15);
  }
  if (n && hi !== lo && hi % xstep) g.fillText(String(hi), X(hi), T + ph + 15);
  g.fillText("epoch", L + pw / 2, H - 3);
  // What the axes say, for people reading the page's source and for tests.
  c.dataset.xlabel = "epoch";
  c.dataset.ylabel = yLabel;
  c.dataset.yticks = yticks.join(" ");
  g.strokeStyle = "#6a6e74";
  g.strokeRect(L + 0.5, T + 0.5, pw, ph);
  for (const sr of series) {
    g.strokeStyle = g.fillStyle = sr.color;
    g.lineWidth = 2;
    g.beginPath();
    let started = false;
    sr.values.forEach((v, i) => {
      if (v === null || v === undefined) return;
      const x = X(epochs[i]), y = T + ph - (v / yMax) * ph;
      started ? g.lineTo(x, y) : g.moveTo(x, y);
      started = true;
    });
    g.stroke();
    sr.values.forEach((v, i) => {
      if (v === null || v === undefined) return;
      g.beginPath();
      g.arc(X(epochs[i]), T + ph - (v / yMax) * ph, 2.5, 0, 2 * Math.PI);
      g.fill();
    });
  }
  if (!n) {
    g.fillStyle = "#9a968c";
    g.textAlign = "center";
    g.fillText("no epoch finished yet", L + pw / 2, T + ph / 2);
  }
  g.textAlign = "left";
}

const legends = {
  supervised: '<span class="item"><span class="k mistakes"></span>mistakes (corrections) in the epoch</span> <span class="item"><span class="k pr"></span>P_r: training cards</span> <span class="item"><span class="k pg"></span>P_g: held-out cards</span>',
  spontaneous: '<span class="item"><span class="k used"></span>responses used</span> <span class="item"><span class="k pr"></span>purity: training cards</span> <span class="item"><span class="k pg"></span>purity: held-out cards</span> <span class="item"><span class="k chance"></span>chance</span>',
};

function drawCurves(hist, spont) {
  const last = hist.length ? hist[hist.length - 1] : null;
  $("epochinfo").textContent = last ? `epochs 1–${last.epoch}` : "";
  const epochs = hist.map((e) => e.epoch);
  const kind = spont ? "spontaneous" : "supervised";
  if ($("curveslegend").dataset.kind !== kind) {
    $("curveslegend").innerHTML = legends[kind];
    $("curveslegend").dataset.kind = kind;
  }
  if (spont) {
    // No labels, so no mistakes: how many responses the machine uses, and
    // how purely they split the cards against the hidden classes.
    const cl = hist.map((e) => e.clusters || null);
    const of = Math.max(2, ...cl.map((c) => (c ? c.of : 0)));
    $("mistakes").setAttribute("aria-label", "responses used per epoch");
    chart($("mistakes"), epochs, [{ values: cl.map((c) => (c ? c.responses : null)), color: "#e0a23a" }], of, Math.max(1, niceStep(of, 4)),
      "responses used", (v) => String(v));
    const purity = [
      { values: cl.map((c) => (c ? 100 * c.chance : null)), color: "#8a8680" },
      { values: cl.map((c) => (c ? 100 * c.purity : null)), color: "#4ea8ff" },
    ];
    if (cl.some((c) => c && c.test_purity !== undefined)) purity.push({ values: cl.map((c) => (c && c.test_purity !== undefined ? 100 * c.test_purity : null)), color: "#5cd67a" });
    $("rates").setAttribute("aria-label", "cluster purity per epoch, training and held-out cards");
    chart($("rates"), epochs, purity, 100, niceStep(100, 4), "% purity", (v) => v + "%");
    return;
  }
  $("mistakes").setAttribute("aria-label", "mistakes per epoch");
  $("rates").setAttribute("aria-label", "P_r and P_g per epoch");
  // Mistakes are counted: whole steps, so that no two ticks read alike.
  const maxM = Math.max(1, ...hist.map((e) => e.mistakes));
  const mstep = Math.max(1, niceStep(maxM, 4));
  chart($("mistakes"), epochs, [{ values: hist.map((e) => e.mistakes), color: "#e0453a" }], mstep * Math.ceil(maxM / mstep), mstep,
    "mistakes", (v) => String(v));
  const rates = [{ values: hist.map((e) => 100 * e.p_r), color: "#4ea8ff" }];
  if (hist.some((e) => e.p_g !== undefined)) rates.push({ values: hist.map((e) => (e.p_g === undefined ? null : 100 * e.p_g)), color: "#5cd67a" });
  chart($("rates"), epochs, rates, 100, niceStep(100, 4), "% right", (v) => v + "%");
}

// The maps of what each R-unit responds to are drawn by the server; the
// picture is fetched again when an epoch ends or the view changes, at most
// every two seconds.
let mapShown = { key: "", at: 0, timer: null };

function refreshMap(s, force) {
  const view = document.querySelector('input[name="mapview"]:checked').value;
  const key = `${view}/${s.layout}/${s.history.length}/${s.running ? "" : s.pulses}`;
  if (!force && key === mapShown.key) return;
  const wait = force ? 0 : Math.max(0, 2000 - (Date.now() - mapShown.at));
  clearTimeout(mapShown.timer);
  mapShown.timer = setTimeout(() => {
    mapShown.key = key;
    mapShown.at = Date.now();
    const img = $("mapimg");
    img.dataset.src = `api/${view}.png?k=${encodeURIComponent(key)}`;
    img.dataset.caption = s.history.length ? `after epoch ${s.history[s.history.length - 1].epoch}` : "before training";
    mapRetry.tries = 0;
    clearTimeout(mapRetry.timer);
    img.src = img.dataset.src;
    $("mapinfo").textContent = img.dataset.caption;
  }, wait);
}

// A picture the server refused (503 while it draws others, under load) or
// that failed to arrive is fetched again after a pause that doubles from
// a quarter of a second up to 8 s; the caption says so meanwhile, and is
// back once the picture has come.
let mapRetry = { tries: 0, timer: null };

function mapFailed() {
  const img = $("mapimg");
  if (!img.dataset.src) return;
  const wait = Math.min(8000, 250 * 2 ** mapRetry.tries);
  mapRetry.tries++;
  $("mapinfo").textContent = `the picture did not come (the panel is busy): trying again in ${(wait / 1000).toFixed(wait < 1000 ? 2 : 0)} s`;
  clearTimeout(mapRetry.timer);
  const src = img.dataset.src;
  mapRetry.timer = setTimeout(() => {
    if (img.dataset.src === src) img.src = `${src}&try=${mapRetry.tries}`;
  }, wait);
}

function mapLoaded() {
  mapRetry.tries = 0;
  const img = $("mapimg");
  if (img.dataset.caption) $("mapinfo").textContent = img.dataset.caption;
}

// The dial panel: groups of dials per R-unit, rows of a power of two.
let dialGeometry = null;

function geometry(width) {
  // The largest dials that fit the window's height; if none do, the
  // shortest panel.
  const groups = layout.groups;
  const n = Math.max(...groups.map((g) => g.pots.length));
  const maxH = Math.max(420, window.innerHeight - 120);
  let best = null;
  for (let gcols = 1; gcols <= groups.length; gcols++) {
    for (let cols = 8; cols <= 64; cols *= 2) {
      const rows = Math.ceil(n / cols);
      if (rows > 2 * cols && cols < 64) continue;
      const labelW = 40, gap = 16;
      const cell = Math.min(44, Math.floor((width - 16 - (gcols - 1) * gap - gcols * labelW) / (gcols * cols)));
      if (cell < 9) continue;
      const grows = Math.ceil(groups.length / gcols);
      const height = 8 + grows * (22 + rows * cell) + (grows - 1) * gap;
      const fits = height <= maxH;
      const score = fits ? 1e6 + cell * 1000 - height / 100 : -height;
      if (!best || score > best.score) best = { cell, cols, rows, gcols, labelW, gap, height, score };
    }
  }
  if (!best) best = { cell: 9, cols: 8, rows: Math.ceil(n / 8), gcols: 1, labelW: 40, gap: 16, height: 8 + groups.length * (22 + Math.ceil(n / 8) * 9) };
  best.width = width;
  return best;
}

function drawDials(s) {
  const c = $("dials");
  const dpr = window.devicePixelRatio || 1;
  const width = Math.max(320, c.clientWidth || 900);
  if (!dialGeometry || dialGeometry.width !== width) dialGeometry = geometry(width);
  const G = dialGeometry;
  if (c.width !== Math.round(width * dpr) || c.height !== Math.round(G.height * dpr)) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(G.height * dpr);
    c.style.height = G.height + "px";
  }
  const g = c.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#f4f1ea";
  g.fillRect(0, 0, width, G.height);
  const lim = layout.limit;
  let scale = lim, tintScale = 0;
  for (const p of s.positions) tintScale = Math.max(tintScale, Math.abs(p));
  if (!scale) scale = tintScale || 1;
  if (!tintScale) tintScale = scale;
  const stuck = new Set(s.stuck), moved = new Set(s.moved);
  const gw = G.labelW + G.cols * G.cell, gh = 22 + G.rows * G.cell;
  layout.groups.forEach((grp, gi) => {
    const gx = 8 + (gi % G.gcols) * (gw + G.gap), gy = 8 + Math.floor(gi / G.gcols) * (gh + G.gap);
    g.fillStyle = "#222";
    g.font = "bold 12px sans-serif";
    g.fillText(`${grp.title} · ${grp.pots.length} pots`, gx, gy + 13);
    grp.pots.forEach((pot, i) => {
      const row = Math.floor(i / G.cols), col = i % G.cols;
      const x = gx + G.labelW + col * G.cell, y = gy + 22 + row * G.cell;
      if (col === 0 && grp.a_units[i] >= 0) {
        g.fillStyle = "#777";
        g.font = `${Math.max(9, Math.min(11, G.cell * 0.42))}px sans-serif`;
        g.textAlign = "right";
        g.fillText("A" + grp.a_units[i], x - 4, y + G.cell / 2 + 4);
        g.textAlign = "left";
      }
      dial(g, x + G.cell / 2, y + G.cell / 2, G.cell, s.positions[pot], scale, tintScale, lim > 0,
        stuck.has(pot), moved.has(pot), grp.a_units[i] < 0);
    });
  });
  $("potinfo").textContent = `${layout.pots} pots · ${s.at_stop} at an end stop · ${s.stuck.length} stuck · ${s.moved.length} moved by the last step`;
}

function diverging(t) {
  const stops = [[5, 48, 97], [33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247],
    [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43], [103, 0, 31]];
  t = Math.max(-1, Math.min(1, t));
  const u = ((t + 1) / 2) * (stops.length - 1);
  const i = Math.min(Math.floor(u), stops.length - 2), f = u - i;
  const c = [0, 1, 2].map((k) => Math.round(stops[i][k] * (1 - f) + stops[i + 1][k] * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

function dial(g, cx, cy, cell, pos, scale, tintScale, stops, stuck, moved, bias) {
  const r = cell * 0.4, lw = Math.max(0.8, cell / 28);
  if (bias) {
    g.strokeStyle = "#c88a00";
    g.lineWidth = Math.max(1, cell / 22);
    g.strokeRect(cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2);
  }
  g.fillStyle = stuck ? "#9a9a9a" : diverging((0.55 * pos) / tintScale);
  g.beginPath();
  g.arc(cx, cy, r, 0, 2 * Math.PI);
  g.fill();
  g.strokeStyle = "#777";
  g.lineWidth = lw;
  g.beginPath();
  g.arc(cx, cy, r * 0.86, (3 * Math.PI) / 4, Math.PI / 4);
  g.stroke();
  if (stops) {
    g.strokeStyle = "#d01c1c";
    g.lineWidth = Math.max(1, cell / 18);
    for (const a of [(5 * Math.PI) / 4, -Math.PI / 4]) {
      const c = Math.cos(a), s = -Math.sin(a);
      g.beginPath();
      g.moveTo(cx + c * r * 0.62, cy + s * r * 0.62);
      g.lineTo(cx + c * r * 1.04, cy + s * r * 1.04);
      g.stroke();
    }
  }
  const atStop = stops && Math.abs(pos) >= scale;
  g.strokeStyle = moved ? "#ffb300" : atStop ? "#d01c1c" : "#777";
  g.lineWidth = moved || atStop ? Math.max(1.5, cell / 12) : lw;
  g.beginPath();
  g.arc(cx, cy, r, 0, 2 * Math.PI);
  g.stroke();
  const t = Math.max(-1, Math.min(1, pos / scale));
  const a = Math.PI / 2 - ((3 * Math.PI) / 4) * t;
  g.strokeStyle = "#222";
  g.lineWidth = Math.max(1.2, cell / 13);
  g.beginPath();
  g.moveTo(cx, cy);
  g.lineTo(cx + Math.cos(a) * r * 0.95, cy - Math.sin(a) * r * 0.95);
  g.stroke();
  if (stuck) {
    const k = r * 0.75;
    g.lineWidth = Math.max(1, cell / 20);
    g.beginPath();
    g.moveTo(cx - k, cy - k); g.lineTo(cx + k, cy + k);
    g.moveTo(cx - k, cy + k); g.lineTo(cx + k, cy - k);
    g.stroke();
  }
}

function upload(file) {
  if (!file) return;
  post("api/upload?name=" + encodeURIComponent(file.name), file);
}

// askLose asks, when a trained machine would be lost, what to do: it
// resolves to "save" (after saving), "keep", "discard" or "cancel".
// keepable offers keeping the machine's training on a new task's cards.
function askLose(text, keepable) {
  const d = $("lose");
  $("lose-text").textContent = text;
  $("lose-save").disabled = !state.can_save;
  $("lose-save").title = state.can_save ? "Save to the file given with mark1 serve --out, then go on" : "Saving is off (start the panel with mark1 serve --out FILE); Download it instead";
  $("lose-keep").hidden = !keepable;
  return new Promise((resolve) => {
    const done = async (v) => {
      for (const b of d.querySelectorAll("button")) b.onclick = null;
      d.onclose = null;
      d.close();
      if (v === "save" && !(await post("api/save"))) v = "cancel";
      resolve(v);
    };
    for (const b of d.querySelectorAll("button")) b.onclick = () => done(b.value);
    d.oncancel = (e) => { e.preventDefault(); done("cancel"); };
    d.showModal();
    $("lose-cancel").focus();
  });
}

// sameClasses reports whether task has this machine's classes (so that it
// can keep its training there); the layout lists each task's classes.
function sameClasses(task) {
  const c = layout.task_classes && layout.task_classes[task];
  return Boolean(c) && c.join("\n") === layout.classes.join("\n");
}

async function changeTask(task) {
  let keep = false;
  if (state && state.trained) {
    const keepable = sameClasses(task);
    const v = await askLose(`Changing the task to ${task} gives a fresh machine: the training of this one (${state.history.length} epochs, ${state.pulses} motor pulses) would be lost.` +
      (keepable ? ` Task ${task} has the same classes, so this machine can keep its training and go on with ${task}'s cards.` : ""), keepable);
    if (v === "cancel") { $("task").value = layout.task; return; }
    keep = v === "keep";
  }
  const r = await post("api/task", keep ? { task, keep: true } : { task });
  if (!r) $("task").value = layout.task;
}

async function resetPots() {
  if (state && state.trained) {
    const v = await askLose(`Reset puts every pot back where it started: the training of this machine (${state.history.length} epochs, ${state.pulses} motor pulses) would be lost.`, false);
    if (v === "cancel") return;
  }
  post("api/reset");
}

function wire() {
  $("task").onchange = (e) => changeTask(e.target.value);
  $("mode").onchange = (e) => post("api/mode", { rule: e.target.value });
  $("present").onclick = () => post("api/present");
  $("cardno").onchange = (e) => { const n = Math.floor(Number(e.target.value)); if (n >= 1) post("api/present", { card: n - 1 }); };
  // Continue training resumes the run in one press: training is opened
  // again, then run, as the button's name says.
  $("continue").onclick = async () => { if (await post("api/continue")) post("api/run"); };
  $("step").onclick = () => post("api/step");
  $("run").onclick = () => post("api/run");
  $("pause").onclick = () => post("api/pause");
  $("reset").onclick = resetPots;
  $("speed").oninput = (e) => { $("speedval").textContent = e.target.value + " ms"; };
  $("speed").onchange = (e) => post("api/speed", { delay_ms: Number(e.target.value) });
  $("file").onchange = (e) => upload(e.target.files[0]);
  $("save").onclick = () => post("api/save");
  $("machinefile").onchange = (e) => { if (e.target.files[0]) post("api/machine", e.target.files[0]); };
  const dz = document.body;
  dz.addEventListener("dragover", (e) => { e.preventDefault(); $("dropzone").classList.add("drag"); });
  dz.addEventListener("dragleave", () => $("dropzone").classList.remove("drag"));
  dz.addEventListener("drop", (e) => {
    e.preventDefault();
    $("dropzone").classList.remove("drag");
    upload(e.dataTransfer.files[0]);
  });
  window.addEventListener("resize", () => { dialGeometry = null; if (state) drawDials(state); });
  for (const r of document.querySelectorAll('input[name="mapview"]')) r.onchange = () => { if (state) refreshMap(state, true); };
  $("mapimg").addEventListener("error", mapFailed);
  $("mapimg").addEventListener("load", mapLoaded);
}

function connect() {
  const es = new EventSource("api/events");
  es.addEventListener("state", (e) => receive(JSON.parse(e.data)));
  es.onopen = () => { document.body.dataset.connected = "true"; };
  es.onerror = () => {
    document.body.dataset.connected = "false";
    $("status").textContent = "connection lost: retrying…";
  };
}

wire();
loadLayout().then(connect);
