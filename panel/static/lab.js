// The lab page: the lecture notes' examples, run step by step. The server
// (mark1/lab) computes every frame; this file only draws it. Requests are
// POSTed as JSON through post(), the one place that would add a header.
"use strict";

const $ = (id) => document.getElementById(id);
const COL = {
  plus: "#b2182b", minus: "#2166ac", ink: "#222", grey: "#777", gold: "#c88a00",
  mistake: "#1b9e3a", ptint: "#fddbc7", mtint: "#d1e5f0", feasible: "rgba(244,165,130,0.55)", axis: "#aaa",
  // Up to four classes: each its colour, tint and mark (○ × △ □); grey
  // where one-vs-rest leaves x to no class or to several.
  classes: ["#b2182b", "#2166ac", "#1b7a3a", "#8a3fb0"], tints: ["#fddbc7", "#d1e5f0", "#ccebc5", "#e5d5f0"], none: "#d9d9d9",
};
const MARKS = ["○", "×", "△", "□"];
const RULES = {
  unit: "one R-unit per class: the largest f_c wins (the machine)",
  ovr: "one-vs-rest by sign: the one class with f_c > 0",
  ovo: "one-vs-one votes (LIBSVM)",
};
// nclasses is the number of classes of your points and drawn data.
const nclasses = () => Number($("classes").value) || 2;
// Run steps every runEvery ms; lab.html?every=100 runs faster.
const runEvery = Math.max(20, Number(new URLSearchParams(location.search).get("every")) || 450);
const lab = { frame: null, examples: [], points: [], gen: null, example: "notes-004", at: 0, timer: null, requests: 0, asked: 0 };
window.lab = lab;

// STATIC: the page is the static lab site (mark1 lab --site): the lab's
// WebAssembly (lab.wasm, started by startWasm) answers in the browser what
// the panel's server answers otherwise, with the same code.
const STATIC = document.querySelector('meta[name="mark1-static"]') !== null;

async function startWasm() {
  const go = new Go(); // wasm_exec.js
  const bytes = await (await fetch("lab.wasm")).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance);
  while (typeof window.mark1Lab !== "function") await new Promise((r) => setTimeout(r, 10));
}

// BUSY is post's answer when the server is busy (503) and quiet is set.
const BUSY = {};

// post sends body as JSON and returns the decoded answer, or null after
// showing the error (BUSY, without showing it, for a 503 when quiet).
async function post(path, body, quiet) {
  if (STATIC) {
    const out = JSON.parse(window.mark1Lab(JSON.stringify(body)));
    if (out.error) {
      showError(out.error.replace(/^bad lab request: /, ""));
      return null;
    }
    return out;
  }
  const headers = { "Content-Type": "application/json" };
  const token = document.querySelector('meta[name="mark1-token"]');
  if (token) headers["X-Mark1-Token"] = token.content;
  try {
    const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    const data = await res.json();
    if (res.status === 503 && quiet) return BUSY;
    if (!res.ok) {
      showError(data.error || res.statusText);
      return null;
    }
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

function clearError() {
  const m = $("message");
  m.textContent = "";
  m.classList.remove("error");
  delete document.body.dataset.error;
}

function setup() {
  const text = $("start").value.trim();
  const start = text ? text.split(",").map((v) => Number(v.trim())) : undefined;
  const learner = $("learner").value;
  return {
    start,
    learner,
    eps: Number($("eps").value) || 1,
    bias: $("bias").checked,
    shuffle: $("order").value === "shuffle",
    seed: Math.max(0, Math.floor(Number($("seed").value) || 0)),
    line_search: $("linesearch").checked,
    kernel: $("kernel").value,
    C: Number($("C").value) || 1,
    hard: $("hard").checked,
    loss: $("loss").value,
    batch: Number($("batch").value) || 1,
    // The a-layer's random A-units (1 to 64); the other learners have none.
    units: learner === "a-layer" ? Math.min(64, Math.max(1, Math.floor(Number($("units").value) || 16))) : undefined,
    // Their kind: half-planes (the default, left out) or on a retina.
    unit_kind: learner === "a-layer" && $("unitkind").value === "raster" ? "raster" : undefined,
  };
}

// show asks for frame f (−1: the end) and draws it. One request is in
// flight at a time: settings changed while it is answered (several at
// once, as a URL's state or a quick hand sets them) are asked for in one
// request after it, with the frame asked last; the server computes only
// a few runs at once.
async function show(f) {
  lab.want = f;
  if (lab.inflight) {
    lab.again = true;
    return lab.inflight;
  }
  lab.inflight = (async () => {
    try {
      do {
        lab.again = false;
        await fetchFrame(lab.want);
      } while (lab.again);
    } finally {
      lab.inflight = null;
    }
  })();
  return lab.inflight;
}

// fetchFrame asks for frame f and draws it; a server busy with other runs
// (503) is asked again after a pause, a few times.
async function fetchFrame(f) {
  const body = { setup: setup(), frame: f };
  if (body.setup.start && body.setup.start.some((v) => !Number.isFinite(v))) {
    showError(`start w "${$("start").value}": write numbers separated by commas`);
    return;
  }
  if (lab.example) body.example = lab.example;
  else if (lab.gen) body.generate = lab.gen;
  else {
    body.points = lab.points;
    if (nclasses() > 2) body.classes = nclasses();
  }
  if (!lab.example && !lab.gen && lab.points.length === 0) {
    lab.frame = null;
    draw();
    showError("click on x-space to place points");
    return;
  }
  delete document.body.dataset.frame;
  const asked = ++lab.asked;
  lab.asking = body; // what the page asked last, for tests: the static site's answer against the command's
  let fr = null;
  for (let i = 0; i < 5; i++) {
    fr = await post("api/lab", body, i < 4);
    if (fr !== BUSY) break;
    await new Promise((r) => setTimeout(r, 200 * (i + 1)));
  }
  if (fr === BUSY) fr = null;
  lab.requests++;
  // Only the latest request's answer is shown: an older one that arrives
  // late would show a state the page has left.
  if (asked !== lab.asked) return;
  if (!fr) {
    // Keep the user's points on screen (one class alone trains nothing).
    lab.frame = null;
    draw();
    return;
  }
  clearError();
  lab.frame = fr;
  lab.at = fr.frame;
  writeURL();
  document.body.dataset.frame = fr.frame;
  document.body.dataset.frames = fr.frames;
  document.body.dataset.w = JSON.stringify(fr.w || null);
  draw();
}

// counter says where the run stands, each number named for what it
// counts: steps (presentations, or batch steps, or SMO pair updates),
// epochs (passes over the data), mistakes (the online learners' updates).
function counter(fr) {
  if (!fr) return "";
  const n = fr.points.length, last = fr.frames - 1;
  let t;
  if (fr.classes) {
    const g = fr.rules.find((r) => r.rule === $("rule").value) || fr.rules[0];
    return `step ${fr.frame} of ${last} (each two-class run one step, or at its end) · ${fr.classes.length} classes · ${RULES[g.rule]}: ${g.score.right} of ${n} training points right` +
      (g.rule === "ovr" ? `, ${g.score.none} claimed by none or several` : "");
  }
  switch ($("learner").value) {
    case "batch-gd":
      t = `step ${fr.frame} of ${last} (one update of w over the whole batch each) · ${fr.misclassified} of ${n} samples misclassified now (|V|)`;
      break;
    case "kernel-perceptron":
      t = `step ${fr.frame} of ${last} (one sample presented each) · epoch ${fr.epoch} · ${fr.mistakes} mistakes so far (each one stored: a_i ← a_i + y_i) · ${fr.misclassified} of ${n} misclassified now`;
      break;
    case "sgd": {
      const b = Number($("batch").value) >= n ? "full batch" : `batch of ${Math.min(Number($("batch").value), n)}`;
      t = `step ${fr.frame} of ${last} (one update of w over a ${b} each) · epoch ${fr.epoch} · R(w) = ${fmt(fr.risk_now)}` +
        (fr.regression ? "" : ` · ${fr.misclassified} of ${n} misclassified now`);
      break;
    }
    case "a-layer": {
      t = `step ${fr.frame} of ${last} (one sample presented to the R-unit, as its A-vector, each) · epoch ${fr.epoch} · ${fr.mistakes} mistakes so far = updates of (w, b) · ${fr.misclassified} of ${n} misclassified now (P_r = ${fmt(100 * (n - fr.misclassified) / n)}%)`;
      break;
    }
    case "svm":
      t = `SMO step ${fr.frame} of ${last} (one pair of α's moved each) · ${fr.ringed.length} support vectors (α > 0) · margin 1/‖w‖ = ${fr.margin ? fmt(fr.margin) : "∞ (w = 0)"} · ${fr.misclassified} of ${n} samples misclassified now`;
      break;
    default:
      t = `step ${fr.frame} of ${last} (one sample presented each) · epoch ${fr.epoch} · ${fr.mistakes} mistakes so far = updates of w · ${fr.misclassified} of ${n} misclassified now` +
        (fr.bound ? ` · bound on mistakes (R/γ)² = ${fr.bound.toFixed(2)}` : "");
  }
  return t + (fr.frame === last ? ` · ${fr.status}` : "");
}

// Which learners each setting applies to, and why it does not to the rest:
// a control that does not apply is disabled, and its title says why.
const APPLIES = {
  eps: [["perceptron", "batch-gd", "sgd", "a-layer"], "the step size ε belongs to the perceptron and gradient descent: the kernel perceptron adds ±1 to a coefficient, the SVM solves its dual"],
  bias: [["perceptron", "batch-gd", "kernel-perceptron", "sgd"], "the SVM always fits its own b, and the a-layer's R-unit always has its bias"],
  order: [["perceptron", "kernel-perceptron", "sgd", "a-layer"], "only the online learners take the samples one at a time: batch GD sums over all of them each step, the SVM picks pairs by its own rule"],
  seed: [["perceptron", "kernel-perceptron", "sgd", "a-layer"], "the seed draws the shuffled order of the online learners (and the a-layer's random A-units)"],
  units: [["a-layer"], "the random A-units are the a-layer's"],
  unitkind: [["a-layer"], "the random A-units are the a-layer's"],
  linesearch: [["batch-gd"], "line search chooses batch GD's step size"],
  start: [["perceptron", "batch-gd", "sgd"], "only the perceptron and gradient descent start from a given w"],
  loss: [["sgd"], "the loss is gradient descent's (notes 002); the other learners have their own"],
  batch: [["sgd"], "the batch size is gradient descent's (notes 002)"],
  kernel: [["kernel-perceptron", "svm"], "kernels belong to the kernel perceptron and the SVM; the perceptron and batch GD work on x itself"],
  C: [["svm"], "C is the SVM's soft-margin penalty"],
  hard: [["svm"], "the hard margin is the SVM's"],
};

// applyControls disables the settings that do not apply to the learner
// chosen (and the seed unless the order is shuffled, C with a hard
// margin), saying why in their titles.
function applyControls() {
  const learner = $("learner").value;
  for (const [id, [learners, why]] of Object.entries(APPLIES)) {
    const el = $(id), label = el.closest("label");
    let off = learners.includes(learner) ? "" : `Not used by the ${learner}: ${why}.`;
    if (!off && id === "seed" && learner !== "a-layer" && $("order").value !== "shuffle") off = "Not used: the seed draws a shuffled order; choose Order: shuffled.";
    if (!off && id === "C" && $("hard").checked) off = "Not used: a hard margin is C → ∞; untick hard margin to set C.";
    if (!off && id === "bias" && learner === "sgd" && $("loss").value === "squared") off = "Not used: the squared loss always fits a line t = w·x + b, with its b.";
    el.disabled = Boolean(off);
    if (!el.dataset.title) el.dataset.title = (label && label.title) || el.title || "";
    el.title = off || el.dataset.title;
    if (label) { label.title = el.title; label.classList.toggle("off", Boolean(off)); }
  }
  const extra = {
    rule: nclasses() < 3 || lab.example ? "With two classes one run decides; the rule joins the runs of 3 or 4 classes." : "",
  };
  for (const [id, off] of Object.entries(extra)) {
    const el = $(id), label = el.closest("label");
    el.disabled = Boolean(off);
    if (!el.dataset.title) el.dataset.title = (label && label.title) || "";
    el.title = off || el.dataset.title;
    if (label) { label.title = el.title; label.classList.toggle("off", Boolean(off)); }
  }
  updatePicker();
}

// updatePicker shows a radio for each class of your points: + and − for
// two, classes 1 to 4 (the first two + and −'s colours) for more.
function updatePicker() {
  const k = nclasses(), multi = k > 2;
  $("name-plus").textContent = multi ? "class 1 (○)" : "+ (O)";
  $("name-minus").textContent = multi ? "class 2 (×)" : "− (X)";
  $("pick3").hidden = k < 3;
  $("pick4").hidden = k < 4;
  for (const id of ["label-3", "label-4"]) if ($(id).closest("label").hidden && $(id).checked) $("label-plus").checked = true;
  $("shifthint").textContent = multi ? "(shift-click places the next class)" : "(shift-click places the other class)";
}

// pickedLabel is the label of a point placed now: ±1 for two classes, the
// class number 1 to 4 for more; shift gives the other (the next) class.
function pickedLabel(shift) {
  const k = nclasses();
  if (k < 3) {
    const l = $("label-plus").checked ? 1 : -1;
    return shift ? -l : l;
  }
  let c = $("label-plus").checked ? 1 : $("label-minus").checked ? 2 : $("label-3").checked ? 3 : 4;
  if (shift) c = (c % k) + 1;
  return c;
}

// relabel moves your points from one number of classes to another: + and
// − are classes 1 and 2; points of a class beyond the new number go.
function relabel(from, to) {
  if (from === to) return 0;
  const before = lab.points.length;
  if (from < 3 && to > 2) lab.points = lab.points.map((p) => [p[0], p[1], p[2] > 0 ? 1 : 2]);
  else if (from > 2 && to < 3) lab.points = lab.points.filter((p) => p[2] <= 2).map((p) => [p[0], p[1], p[2] === 1 ? 1 : -1]);
  else lab.points = lab.points.filter((p) => p[2] <= to);
  return before - lab.points.length;
}

const LOSSCOL = { perceptron: "#222", hinge: "#c88a00", logistic: "#1b9e3a", squared: "#7b3294" };

// drawLosses draws every loss side by side at the frame's step.
function drawLosses(fr) {
  const box = $("sidebyside");
  box.hidden = !(fr && fr.losses);
  if (box.hidden) return;
  const panels = $("panels");
  if (panels.children.length !== fr.losses.length) {
    panels.innerHTML = "";
    for (const lp of fr.losses) {
      const d = document.createElement("div");
      d.className = "losspanel";
      d.innerHTML = `<h3></h3><canvas width="300" height="300" role="img"></canvas><canvas width="300" height="300" role="img"></canvas><div class="stat"></div>`;
      panels.appendChild(d);
    }
  }
  fr.losses.forEach((lp, k) => {
    const d = panels.children[k], [cx, cw] = d.querySelectorAll("canvas");
    d.querySelector("h3").textContent = `${lp.loss} loss`;
    d.querySelector("h3").style.color = LOSSCOL[lp.loss] === "#222" ? "" : LOSSCOL[lp.loss];
    cx.setAttribute("aria-label", `x-space: the data and the ${lp.loss} loss's line after step ${lp.step}`);
    cw.setAttribute("aria-label", `the ${lp.loss} loss's risk over w-space and the path of w`);
    d.querySelector(".stat").textContent = `step ${lp.step} of ${lp.steps} · R(w) = ${fmt(lp.risk)}` +
      (lp.loss === "squared" ? " · a line through the points (x₂ from x₁)" : ` · ${lp.misclassified} misclassified`) + (lp.step === lp.steps ? ` · ${lp.status}` : "");
    // x-space
    let g = cx.getContext("2d");
    g.clearRect(0, 0, cx.width, cx.height);
    let v = view(cx, fr.xbox);
    axes(g, v, "x₁", "x₂");
    if (lp.loss === "squared") {
      g.strokeStyle = COL.grey; g.lineWidth = 1;
      for (const p of fr.points) { g.beginPath(); g.moveTo(v.px(p[0]), v.py(p[1])); g.lineTo(v.px(p[0]), v.py(lp.line[0] * p[0] + lp.line[2])); g.stroke(); }
    }
    g.strokeStyle = LOSSCOL[lp.loss]; g.lineWidth = 3;
    if (lp.line[0] !== 0 || lp.line[1] !== 0) line(g, v, lp.line[0], lp.line[1], lp.line[2]);
    drawPoints(g, v, { points: fr.points, labels: fr.labels }, true);
    // w-space: the loss's risk and the path
    g = cw.getContext("2d");
    g.clearRect(0, 0, cw.width, cw.height);
    v = view(cw, lp.wbox);
    const rmax = Math.max(lp.grid.max, 1e-9);
    shade(g, v, lp.grid, (z) => {
      const t = Math.min(z / rmax, 1);
      return `rgb(${Math.round(255 + t * (0x54 - 255))},${Math.round(255 + t * (0x27 - 255))},${Math.round(255 + t * (0x8f - 255))})`;
    });
    axes(g, v, lp.waxes[0], lp.waxes[1]);
    g.strokeStyle = COL.ink; g.lineWidth = 1.5;
    g.beginPath();
    lp.path.forEach((w, i) => (i ? g.lineTo(v.px(w[0]), v.py(w[1])) : g.moveTo(v.px(w[0]), v.py(w[1]))));
    g.stroke();
    g.fillStyle = COL.gold;
    g.beginPath(); g.arc(v.px(lp.w[0]), v.py(lp.w[1]), 6, 0, 2 * Math.PI); g.fill();
    g.fillStyle = COL.ink; g.font = "12px sans-serif"; g.textAlign = "left";
    g.fillText(`R max here ${fmt(lp.grid.max)}`, 40, 16);
  });
}

function draw() {
  const fr = lab.frame;
  $("caption").textContent = fr ? fr.caption : "";
  $("counter").textContent = counter(fr);
  drawLosses(fr);
  drawRules(fr);
  drawUnits(fr);
  drawX(fr);
  drawW(fr);
  drawTrace(fr);
}

// view maps data coordinates of box [x0, x1, y0, y1] to a canvas.
function view(canvas, box) {
  const pad = 36, w = canvas.width - 2 * pad, h = canvas.height - 2 * pad;
  const sx = w / (box[1] - box[0]), sy = h / (box[3] - box[2]);
  return {
    px: (x) => pad + (x - box[0]) * sx,
    py: (y) => pad + (box[3] - y) * sy,
    ix: (px) => box[0] + (px - pad) / sx,
    iy: (py) => box[3] - (py - pad) / sy,
    box, pad, sx, sy,
  };
}

function axes(ctx, v, xl, yl) {
  const b = v.box;
  ctx.strokeStyle = COL.axis;
  ctx.lineWidth = 1;
  ctx.fillStyle = "#555";
  ctx.font = "13px sans-serif";
  ctx.strokeRect(v.px(b[0]), v.py(b[3]), v.px(b[1]) - v.px(b[0]), v.py(b[2]) - v.py(b[3]));
  const step = niceStep((b[1] - b[0]) / 8);
  for (let t = Math.ceil(b[0] / step) * step; t <= b[1] + 1e-9; t += step) {
    ctx.beginPath(); ctx.moveTo(v.px(t), v.py(b[2])); ctx.lineTo(v.px(t), v.py(b[2]) + 5); ctx.stroke();
    ctx.textAlign = "center"; ctx.fillText(fmt(t), v.px(t), v.py(b[2]) + 18);
  }
  for (let t = Math.ceil(b[2] / step) * step; t <= b[3] + 1e-9; t += step) {
    ctx.beginPath(); ctx.moveTo(v.px(b[0]) - 5, v.py(t)); ctx.lineTo(v.px(b[0]), v.py(t)); ctx.stroke();
    ctx.textAlign = "right"; ctx.fillText(fmt(t), v.px(b[0]) - 7, v.py(t) + 4);
  }
  ctx.beginPath();
  ctx.moveTo(v.px(0), v.py(b[2])); ctx.lineTo(v.px(0), v.py(b[3]));
  ctx.moveTo(v.px(b[0]), v.py(0)); ctx.lineTo(v.px(b[1]), v.py(0));
  ctx.stroke();
  ctx.font = "bold 16px sans-serif"; ctx.fillStyle = COL.ink;
  ctx.textAlign = "right"; ctx.fillText(xl, v.px(b[1]) - 4, v.py(0) - 6);
  ctx.textAlign = "right"; ctx.fillText(yl, v.px(0) - 6, v.py(b[3]) + 34);
}

function niceStep(v) {
  const e = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 5, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}

function fmt(v) {
  const r = Math.round(v * 1e4) / 1e4;
  return (r === 0 ? "0" : String(r)).replace("-", "−");
}

// line draws a·x + b·y + c = 0 across the view.
function line(ctx, v, a, b, c) {
  const B = v.box, pts = [];
  const corners = [[B[0], B[2]], [B[1], B[2]], [B[1], B[3]], [B[0], B[3]]];
  for (let i = 0; i < 4; i++) {
    const p = corners[i], q = corners[(i + 1) % 4];
    const sp = a * p[0] + b * p[1] + c, sq = a * q[0] + b * q[1] + c;
    if (sp === 0) pts.push(p);
    if ((sp < 0 && sq > 0) || (sp > 0 && sq < 0)) {
      const t = sp / (sp - sq);
      pts.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  if (pts.length < 2) return null;
  ctx.beginPath(); ctx.moveTo(v.px(pts[0][0]), v.py(pts[0][1])); ctx.lineTo(v.px(pts[1][0]), v.py(pts[1][1])); ctx.stroke();
  return pts;
}

// contour draws the level set z = level of a grid by marching squares.
function contour(ctx, v, g, level) {
  const n = g.n, dx = (g.box[1] - g.box[0]) / n, dy = (g.box[3] - g.box[2]) / n;
  const X = (c) => g.box[0] + (c + 0.5) * dx, Y = (r) => g.box[2] + (r + 0.5) * dy;
  const z = (c, r) => g.z[r * n + c] - level;
  ctx.beginPath();
  for (let r = 0; r < n - 1; r++) {
    for (let c = 0; c < n - 1; c++) {
      const corners = [[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]];
      const cross = [];
      for (let k = 0; k < 4; k++) {
        const p = corners[k], q = corners[(k + 1) % 4];
        const a = z(p[0], p[1]), b = z(q[0], q[1]);
        if ((a < 0) !== (b < 0)) {
          const t = a / (a - b);
          cross.push([X(p[0]) + t * (X(q[0]) - X(p[0])), Y(p[1]) + t * (Y(q[1]) - Y(p[1]))]);
        }
      }
      for (let k = 0; k + 1 < cross.length; k += 2) {
        ctx.moveTo(v.px(cross[k][0]), v.py(cross[k][1]));
        ctx.lineTo(v.px(cross[k + 1][0]), v.py(cross[k + 1][1]));
      }
    }
  }
  ctx.stroke();
}

// shade fills each grid cell with color(z).
function shade(ctx, v, g, color) {
  const n = g.n, dx = (g.box[1] - g.box[0]) / n, dy = (g.box[3] - g.box[2]) / n;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      ctx.fillStyle = color(g.z[r * n + c]);
      const x0 = v.px(g.box[0] + c * dx), y0 = v.py(g.box[2] + (r + 1) * dy);
      ctx.fillRect(x0, y0, Math.ceil(dx * v.sx) + 1, Math.ceil(dy * v.sy) + 1);
    }
  }
}

// drawPoints draws the points, numbered unless small (the side-by-side
// panels), where they are drawn smaller.
function drawPoints(ctx, v, fr, small) {
  ctx.lineWidth = small ? 2 : 2.5;
  ctx.font = "14px sans-serif";
  const r = small ? 5 : 8, k = small ? 4.5 : 7;
  fr.points.forEach((p, i) => {
    const x = v.px(p[0]), y = v.py(p[1]);
    if (fr.classes) {
      mark(ctx, x, y, fr.labels[i], r);
    } else if (fr.labels[i] > 0) {
      ctx.strokeStyle = COL.plus;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke();
    } else {
      ctx.strokeStyle = COL.minus;
      ctx.beginPath(); ctx.moveTo(x - k, y - k); ctx.lineTo(x + k, y + k); ctx.moveTo(x + k, y - k); ctx.lineTo(x - k, y + k); ctx.stroke();
    }
    if (small) return;
    ctx.fillStyle = COL.grey;
    ctx.textAlign = "left";
    ctx.fillText(String(i + 1), x + 9, y - 8);
  });
}

// mark draws class c's mark at (x, y): ○ × △ □ in its colour.
function mark(ctx, x, y, c, r) {
  ctx.strokeStyle = COL.classes[c];
  ctx.beginPath();
  switch (c) {
    case 0: ctx.arc(x, y, r, 0, 2 * Math.PI); break;
    case 1: ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r); break;
    case 2: ctx.moveTo(x, y - r * 1.15); ctx.lineTo(x + r, y + r * 0.75); ctx.lineTo(x - r, y + r * 0.75); ctx.closePath(); break;
    default: ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
  }
  ctx.stroke();
}

// rulePicture draws a rule's classes over x-space, the one-vs-rest lines
// of the linear learners (not for the votes), and the points.
function rulePicture(ctx, v, fr, g, small) {
  shade(ctx, v, g, (z) => (z < 0 ? COL.none : COL.tints[z]));
  axes(ctx, v, "x₁", "x₂");
  if (g.rule !== "ovo") {
    (fr.lines || []).forEach((l, c) => {
      ctx.strokeStyle = COL.classes[c]; ctx.lineWidth = small ? 2 : 2.5;
      if (l[0] !== 0 || l[1] !== 0) line(ctx, v, l[0], l[1], l[2]);
    });
  }
  drawPoints(ctx, v, fr, small);
  // Each region named where its cells centre (a class with under 2% of them is not).
  const sums = fr.classes.map(() => [0, 0, 0]), n = g.n;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const z = g.z[r * n + c];
      if (z < 0) continue;
      sums[z][0] += g.box[0] + (g.box[1] - g.box[0]) * (c + 0.5) / n;
      sums[z][1] += g.box[2] + (g.box[3] - g.box[2]) * (r + 0.5) / n;
      sums[z][2]++;
    }
  }
  ctx.font = `bold ${small ? 15 : 22}px sans-serif`; ctx.textAlign = "center"; ctx.lineWidth = 4; ctx.strokeStyle = "rgba(255,255,255,0.85)";
  sums.forEach((s, c) => {
    if (s[2] < 0.02 * n * n) return;
    const x = v.px(s[0] / s[2]), y = v.py(s[1] / s[2]), label = `class ${fr.classes[c]}`;
    ctx.strokeText(label, x, y); ctx.fillStyle = COL.classes[c]; ctx.fillText(label, x, y);
  });
}

// drawRules draws the three rules side by side (3 or 4 classes).
function drawRules(fr) {
  const box = $("rulesbox");
  box.hidden = !(fr && fr.classes);
  // Beside x-space, where the dual chart of two classes is, when shown.
  const home = box.hidden ? document.querySelector(".tracebox") : null;
  if (home && box.parentElement.tagName === "MAIN") home.before(box);
  if (!box.hidden && box.parentElement.tagName !== "MAIN") document.querySelector("main").appendChild(box);
  if (box.hidden) return;
  const panels = $("rulepanels");
  if (panels.children.length !== fr.rules.length) {
    panels.innerHTML = "";
    for (let k = 0; k < fr.rules.length; k++) {
      const d = document.createElement("div");
      d.className = "rulepanel";
      d.innerHTML = `<h3></h3><canvas width="300" height="300" role="img"></canvas><div class="stat"></div>`;
      panels.appendChild(d);
    }
  }
  fr.rules.forEach((g, k) => {
    const d = panels.children[k], cv = d.querySelector("canvas"), ctx = cv.getContext("2d");
    d.querySelector("h3").textContent = RULES[g.rule];
    cv.setAttribute("aria-label", `x-space: the classes ${RULES[g.rule]} gives`);
    d.querySelector(".stat").textContent = `${g.score.right} of ${fr.points.length} training points right` + (g.rule === "ovr" ? `, ${g.score.none} claimed by none or several` : "");
    ctx.clearRect(0, 0, cv.width, cv.height);
    rulePicture(ctx, view(cv, fr.xbox), fr, g, true);
  });
}

// classLegend lists the classes' marks and regions (3 or 4 classes).
function classLegend(fr) {
  const el = $("classlegend");
  const multi = Boolean(fr && fr.classes) || (!fr && !lab.example && nclasses() > 2);
  el.hidden = !multi;
  $("xlegend").hidden = multi;
  $("wlegend").hidden = multi;
  $("wspace").closest(".unit").hidden = multi; // a dual chart is of one two-class run
  if (!$("xhead").dataset.two) { $("xhead").dataset.two = $("xhead").textContent; $("whead").dataset.two = $("whead").textContent; }
  $("xhead").textContent = multi ? "the points of each class, the regions the rule chosen gives them (Rule, above), each class's line against the rest" : $("xhead").dataset.two;
  $("whead").textContent = multi ? "a dual chart per two-class run: not drawn here" : $("whead").dataset.two;
  if (!multi) return;
  const names = fr ? fr.classes : Array.from({ length: nclasses() }, (_, i) => String(i + 1));
  el.innerHTML = "";
  names.forEach((name, c) => {
    el.insertAdjacentHTML("beforeend", `<span class="k c${c}"></span>class ${name} (${MARKS[c]}) <span class="k t${c}"></span>its region `);
  });
  el.insertAdjacentHTML("beforeend", `<span class="k tnone"></span>no class, or several (one-vs-rest by sign) <span class="k line"></span>f_c = 0: a class against the rest, in its colour`);
}

function ring(ctx, v, p, color, r) {
  ctx.strokeStyle = color; ctx.lineWidth = 3;
  ctx.beginPath(); ctx.arc(v.px(p[0]), v.py(p[1]), r, 0, 2 * Math.PI); ctx.stroke();
}

function drawX(fr) {
  const cv = $("xspace"), ctx = cv.getContext("2d");
  ctx.clearRect(0, 0, cv.width, cv.height);
  const box = fr ? fr.xbox : [-5, 5, -5, 5];
  const v = view(cv, box);
  lab.xview = v;
  classLegend(fr);
  if (fr && fr.classes) {
    const g = fr.rules.find((r) => r.rule === $("rule").value) || fr.rules[0];
    rulePicture(ctx, v, fr, g, false);
    lab.drawn = fr.points.length;
    return;
  }
  if (fr && fr.decision) {
    shade(ctx, v, fr.decision, (z) => (z >= 0 ? COL.ptint : COL.mtint));
  }
  axes(ctx, v, "x₁", "x₂");
  if (!fr) {
    // No run to show: draw the user's points as placed so far.
    if (nclasses() > 2) drawPoints(ctx, v, { points: lab.points, labels: lab.points.map((p) => p[2] - 1), classes: ["1", "2", "3", "4"] });
    else drawPoints(ctx, v, { points: lab.points, labels: lab.points.map((p) => p[2]) });
    lab.drawn = lab.points.length;
    return;
  }
  lab.drawn = fr.points.length;
  ctx.strokeStyle = COL.ink;
  if (fr.regression) {
    // A line through the points: the residuals as grey segments.
    const [a, c] = [fr.line[0], fr.line[2]];
    ctx.strokeStyle = COL.grey; ctx.lineWidth = 1.5;
    for (const p of fr.points) { ctx.beginPath(); ctx.moveTo(v.px(p[0]), v.py(p[1])); ctx.lineTo(v.px(p[0]), v.py(a * p[0] + c)); ctx.stroke(); }
    ctx.strokeStyle = COL.ink; ctx.lineWidth = 3;
    line(ctx, v, fr.line[0], fr.line[1], fr.line[2]);
  } else if (fr.units || fr.raster) {
    // The A-layer: each unit's line dashed (or the retina's cells), the
    // R-unit's boundary solid.
    ctx.strokeStyle = COL.grey; ctx.lineWidth = 1.2; ctx.setLineDash([6, 4]);
    for (const u of fr.units || []) line(ctx, v, u.w[0], u.w[1], -u.theta);
    ctx.setLineDash([]);
    if (fr.retina) retinaGrid(ctx, v, fr.retina);
    ctx.strokeStyle = COL.ink; ctx.lineWidth = 3;
    contour(ctx, v, fr.decision, 0);
  } else if (fr.w && (fr.w[0] !== 0 || fr.w[1] !== 0)) {
    const b = fr.bias ? fr.w[2] : 0;
    ctx.lineWidth = 3;
    line(ctx, v, fr.w[0], fr.w[1], b);
    const n = Math.hypot(fr.w[0], fr.w[1]), L = (box[1] - box[0]) / 5;
    const x0 = -b * fr.w[0] / (n * n), y0 = -b * fr.w[1] / (n * n);
    arrow(ctx, v, x0, y0, x0 + L * fr.w[0] / n, y0 + L * fr.w[1] / n, COL.gold);
  } else if (fr.decision && !fr.w) {
    ctx.lineWidth = 3;
    contour(ctx, v, fr.decision, 0);
    if (fr.band) {
      ctx.setLineDash([8, 5]); ctx.lineWidth = 2;
      contour(ctx, v, fr.decision, 1);
      contour(ctx, v, fr.decision, -1);
      ctx.setLineDash([]);
    }
  }
  for (const s of fr.ringed) ring(ctx, v, fr.points[s - 1], COL.gold, 14);
  if (fr.mark >= 0) ring(ctx, v, fr.points[fr.mark], fr.mistake ? COL.mistake : COL.grey, 18);
  if (fr.pair) for (const i of fr.pair) ring(ctx, v, fr.points[i], COL.mistake, 18);
  drawPoints(ctx, v, fr);
}

function arrow(ctx, v, x0, y0, x1, y1, color) {
  const a = [v.px(x0), v.py(y0)], b = [v.px(x1), v.py(y1)];
  const ang = Math.atan2(b[1] - a[1], b[0] - a[0]);
  ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = 3;
  ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
  ctx.beginPath(); ctx.moveTo(b[0], b[1]);
  ctx.lineTo(b[0] - 14 * Math.cos(ang - 0.4), b[1] - 14 * Math.sin(ang - 0.4));
  ctx.lineTo(b[0] - 14 * Math.cos(ang + 0.4), b[1] - 14 * Math.sin(ang + 0.4));
  ctx.closePath(); ctx.fill();
}

function drawW(fr) {
  const cv = $("wspace"), ctx = cv.getContext("2d");
  ctx.clearRect(0, 0, cv.width, cv.height);
  const al = Boolean(fr && (fr.units || fr.raster));
  if (!$("whead").dataset.dual) $("whead").dataset.dual = $("whead").textContent;
  $("whead").textContent = al ? "A-space: each sample as the R-unit sees it, its A-vector (left: a dark cell where unit j fires), and its score w·a + b (right)" : $("whead").dataset.dual;
  $("wlegend").hidden = al || Boolean(fr && fr.classes);
  if (al) {
    drawASpace(ctx, cv, fr);
    return;
  }
  if (!fr || !fr.w) {
    const v = view(cv, [-4, 4, -4, 4]);
    axes(ctx, v, "w₁", "w₂");
    ctx.fillStyle = COL.grey; ctx.font = "16px sans-serif"; ctx.textAlign = "center";
    if (fr && fr.classes) {
      ctx.fillText(`${fr.classes.length} classes: a dual chart for each two-class run;`, cv.width / 2, cv.height / 2 - 40);
      ctx.fillText("the rules side by side are below, the runs in the trace", cv.width / 2, cv.height / 2 - 18);
    } else ctx.fillText("the dual chart belongs to the perceptron and batch GD", cv.width / 2, cv.height / 2 - 30);
    $("rmax").textContent = "";
    return;
  }
  const v = view(cv, fr.wbox);
  const rmax = Math.max(fr.risk.max, 1e-9);
  const wa = fr.waxes || ["w₁", "w₂"];
  shade(ctx, v, fr.risk, (z) => {
    const t = Math.min(z / rmax, 1);
    return `rgb(${Math.round(255 + t * (0x54 - 255))},${Math.round(255 + t * (0x27 - 255))},${Math.round(255 + t * (0x8f - 255))})`;
  });
  $("rmax").textContent = fmt(fr.risk.max) + (fr.bias ? ` (slice at b = ${fmt(fr.w[2])})` : "") + (fr.loss ? ` — R(w) is the ${fr.loss} loss's mean` : "");
  axes(ctx, v, wa[0], wa[1]);
  if (fr.feasible.length > 2) {
    ctx.fillStyle = COL.feasible; ctx.strokeStyle = COL.gold; ctx.lineWidth = 2.5;
    ctx.beginPath();
    fr.feasible.forEach((p, i) => (i ? ctx.lineTo(v.px(p[0]), v.py(p[1])) : ctx.moveTo(v.px(p[0]), v.py(p[1]))));
    ctx.closePath(); ctx.fill(); ctx.stroke();
  }
  ctx.font = "bold 15px sans-serif";
  const used = []; // label positions, so that coinciding lines' numbers sit side by side
  for (const d of fr.dual || []) {
    ctx.strokeStyle = d.y > 0 ? COL.plus : COL.minus;
    ctx.lineWidth = 2;
    const pts = line(ctx, v, d.normal[0], d.normal[1], d.c);
    if (pts) {
      const e = pts[0][1] > pts[1][1] ? pts[0] : pts[1];
      ctx.fillStyle = ctx.strokeStyle; ctx.textAlign = "center";
      let x = v.px(e[0] * 0.92) + 10, y = v.py(e[1] * 0.92);
      while (used.some((u) => Math.abs(u[0] - x) < 14 && Math.abs(u[1] - y) < 14)) x += 16;
      used.push([x, y]);
      ctx.fillText(String(d.sample), x, y);
    }
  }
  ctx.strokeStyle = COL.ink; ctx.fillStyle = COL.ink; ctx.lineWidth = 2;
  ctx.beginPath();
  fr.path.forEach((w, i) => (i ? ctx.lineTo(v.px(w[0]), v.py(w[1])) : ctx.moveTo(v.px(w[0]), v.py(w[1]))));
  ctx.stroke();
  for (const w of fr.path) { ctx.beginPath(); ctx.arc(v.px(w[0]), v.py(w[1]), 3.5, 0, 2 * Math.PI); ctx.fill(); }
  ctx.fillStyle = COL.gold;
  ctx.beginPath(); ctx.arc(v.px(fr.w[0]), v.py(fr.w[1]), 8, 0, 2 * Math.PI); ctx.fill();
  ctx.fillStyle = COL.ink; ctx.font = "15px sans-serif"; ctx.textAlign = "left";
  ctx.fillText((fr.regression ? "(w, b) = (" : "w = (") + fr.w.map(fmt).join(", ") + ")", v.px(fr.w[0]) + 11, v.py(fr.w[1]) + 5);
}

// aOrder lists the samples as the A-space view does: + first, then −.
function aOrder(fr) {
  const idx = fr.labels.map((_, i) => i);
  return idx.filter((i) => fr.labels[i] > 0).concat(idx.filter((i) => fr.labels[i] <= 0));
}

// drawASpace draws the samples as the R-unit sees them: their A-vectors
// listed (a row per sample, + first) and projected on the R-unit, each at
// its score w·a + b, right of 0 predicted +.
function drawASpace(ctx, cv, fr) {
  const order = aOrder(fr), n = order.length, nu = fr.a[0].length;
  const top = 40, bottom = cv.height - 40, rowH = (bottom - top) / n;
  const mx0 = 40, mx1 = cv.width * 0.45, cellW = (mx1 - mx0) / nu;
  ctx.font = "13px sans-serif"; ctx.fillStyle = COL.ink; ctx.textAlign = "center";
  ctx.fillText(`A-vectors: ${n} samples × ${nu} units`, (mx0 + mx1) / 2, top - 14);
  order.forEach((i, r) => {
    const y = top + r * rowH;
    fr.a[i].forEach((bit, j) => {
      ctx.fillStyle = bit ? COL.ink : "#fff";
      ctx.fillRect(mx0 + j * cellW, y, Math.max(cellW - 0.5, 0.5), Math.max(rowH - 0.5, 0.5));
    });
    if (n <= 40) {
      ctx.fillStyle = fr.labels[i] > 0 ? COL.plus : COL.minus; ctx.textAlign = "right";
      ctx.fillText(String(i + 1), mx0 - 6, y + rowH / 2 + 4);
    }
  });
  ctx.strokeStyle = COL.axis; ctx.lineWidth = 1; ctx.strokeRect(mx0, top, mx1 - mx0, bottom - top);
  // The projection: x from the scores' range, 0 always in it.
  const px0 = mx1 + 30, px1 = cv.width - 20;
  let lo = -1, hi = 1;
  for (const s of fr.scores) { lo = Math.min(lo, s); hi = Math.max(hi, s); }
  const pad = 0.1 * (hi - lo);
  lo = Math.floor(lo - pad); hi = Math.ceil(hi + pad);
  const X = (s) => px0 + (s - lo) / (hi - lo) * (px1 - px0);
  ctx.fillStyle = COL.mtint; ctx.fillRect(px0, top, X(0) - px0, bottom - top);
  ctx.fillStyle = COL.ptint; ctx.fillRect(X(0), top, px1 - X(0), bottom - top);
  ctx.strokeStyle = COL.ink; ctx.lineWidth = 3;
  ctx.beginPath(); ctx.moveTo(X(0), top); ctx.lineTo(X(0), bottom); ctx.stroke();
  ctx.fillStyle = COL.ink; ctx.textAlign = "center";
  ctx.fillText("w·a + b", (px0 + px1) / 2, top - 14);
  ctx.fillText(fmt(lo), px0, bottom + 16); ctx.fillText("0", X(0), bottom + 16); ctx.fillText(fmt(hi), px1, bottom + 16);
  const r = Math.max(2, Math.min(7, rowH / 2 - 1));
  order.forEach((i, row) => {
    const x = X(fr.scores[i]), y = top + row * rowH + rowH / 2;
    ctx.lineWidth = 2;
    if (fr.labels[i] > 0) {
      ctx.strokeStyle = COL.plus; ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke();
    } else {
      ctx.strokeStyle = COL.minus; ctx.beginPath();
      ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r); ctx.stroke();
    }
    if (i === fr.mark) { ctx.strokeStyle = fr.mistake ? COL.mistake : COL.grey; ctx.lineWidth = 2.5; ctx.strokeRect(mx0 - 2, y - rowH / 2 - 1, mx1 - mx0 + 4, rowH + 2); }
  });
}

// halfPlane clips box [x0, x1, y0, y1] to a·x + b·y + c ≥ 0 (a polygon).
function halfPlane(box, a, b, c) {
  const pts = [[box[0], box[2]], [box[1], box[2]], [box[1], box[3]], [box[0], box[3]]], out = [];
  for (let i = 0; i < 4; i++) {
    const p = pts[i], q = pts[(i + 1) % 4];
    const sp = a * p[0] + b * p[1] + c, sq = a * q[0] + b * q[1] + c;
    if (sp >= 0) out.push(p);
    if ((sp >= 0) !== (sq >= 0)) {
      const t = sp / (sp - sq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

// drawUnits draws one thumbnail per A-unit (the a-layer): the data's view
// shaded where the unit fires (with its line, or its origin cells on the
// retina), the points, and the R-unit's weight on it now; a unit firing
// at the sample just presented is framed.
function drawUnits(fr) {
  const box = $("unitsbox");
  box.hidden = !(fr && (fr.units || fr.raster));
  if (box.hidden) return;
  const panels = $("unitpanels"), nu = fr.a[0].length;
  if (panels.children.length !== nu) {
    panels.innerHTML = "";
    for (let j = 0; j < nu; j++) {
      const d = document.createElement("div");
      d.className = "unitpanel";
      d.innerHTML = `<h3></h3><canvas width="150" height="150" role="img"></canvas>`;
      panels.appendChild(d);
    }
  }
  for (let j = 0; j < nu; j++) {
    const d = panels.children[j], cv = d.querySelector("canvas"), ctx = cv.getContext("2d");
    const w = fr.w[j], firing = fr.mark >= 0 && fr.a[fr.mark][j] === 1;
    d.querySelector("h3").textContent = `A${j + 1}: weight ${fmt(w)}`;
    d.classList.toggle("firing", firing);
    ctx.clearRect(0, 0, cv.width, cv.height);
    const pad = 4, b = fr.xbox, sx = (cv.width - 2 * pad) / (b[1] - b[0]), sy = (cv.height - 2 * pad) / (b[3] - b[2]);
    const v = { px: (x) => pad + (x - b[0]) * sx, py: (y) => pad + (b[3] - y) * sy, box: b, pad, sx, sy };
    if (fr.raster) {
      const u = fr.raster[j];
      cv.setAttribute("aria-label", `A-unit ${j + 1}: fires where its ${u.exc.length} excitatory cells lit less its ${u.inh.length} inhibitory cells lit reach ${u.theta}; the R-unit's weight on it ${fmt(w)}`);
      rasterUnit(ctx, v, fr.retina, u, fr.fires[j]);
    } else {
      const u = fr.units[j];
      cv.setAttribute("aria-label", `A-unit ${j + 1}: fires where ${fmt(u.w[0])}·x₁ + ${fmt(u.w[1])}·x₂ ≥ ${fmt(u.theta)}; the R-unit's weight on it ${fmt(w)}`);
      const poly = halfPlane(b, u.w[0], u.w[1], -u.theta);
      if (poly.length > 2) {
        ctx.fillStyle = "#f6e3b4";
        ctx.beginPath();
        poly.forEach((p, i) => (i ? ctx.lineTo(v.px(p[0]), v.py(p[1])) : ctx.moveTo(v.px(p[0]), v.py(p[1]))));
        ctx.closePath(); ctx.fill();
      }
      ctx.strokeStyle = COL.axis; ctx.lineWidth = 1; ctx.strokeRect(pad, pad, cv.width - 2 * pad, cv.height - 2 * pad);
      ctx.strokeStyle = COL.gold; ctx.lineWidth = 2;
      line(ctx, v, u.w[0], u.w[1], -u.theta);
    }
    drawPoints(ctx, v, { points: fr.points, labels: fr.labels }, true);
    if (fr.mark >= 0) ring(ctx, v, fr.points[fr.mark], fr.mistake ? COL.mistake : COL.grey, 9);
  }
}

// cellBox returns cell k of the retina r as [x0, x1, y0, y1] (cells
// numbered row by row from the bottom left, as lab.Retina numbers them).
function cellBox(r, k) {
  const c = k % r.side, row = Math.floor(k / r.side), b = r.box;
  return [b[0] + (b[1] - b[0]) * c / r.side, b[0] + (b[1] - b[0]) * (c + 1) / r.side,
    b[2] + (b[3] - b[2]) * row / r.side, b[2] + (b[3] - b[2]) * (row + 1) / r.side];
}

// retinaGrid draws the retina's cells as a faint grid.
function retinaGrid(ctx, v, r) {
  const b = r.box;
  ctx.strokeStyle = "#bbb"; ctx.lineWidth = 0.6;
  ctx.beginPath();
  for (let i = 0; i <= r.side; i++) {
    const x = b[0] + (b[1] - b[0]) * i / r.side, y = b[2] + (b[3] - b[2]) * i / r.side;
    ctx.moveTo(v.px(x), v.py(b[2])); ctx.lineTo(v.px(x), v.py(b[3]));
    ctx.moveTo(v.px(b[0]), v.py(y)); ctx.lineTo(v.px(b[1]), v.py(y));
  }
  ctx.stroke();
}

// rasterUnit draws a raster unit's thumbnail: the cells where it fires
// shaded (fires: a 1 per such cell; the edge cells reach the view's edge,
// as a point beyond the retina falls in the nearest), the retina's grid,
// its excitatory cells (+) and inhibitory cells (□).
function rasterUnit(ctx, v, r, u, fires) {
  const vb = v.box;
  ctx.fillStyle = "#f6e3b4";
  for (let k = 0; k < fires.length; k++) {
    if (fires[k] !== "1") continue;
    const c = cellBox(r, k), col = k % r.side, row = Math.floor(k / r.side);
    const x0 = col === 0 ? vb[0] : c[0], x1 = col === r.side - 1 ? vb[1] : c[1];
    const y0 = row === 0 ? vb[2] : c[2], y1 = row === r.side - 1 ? vb[3] : c[3];
    ctx.fillRect(v.px(x0), v.py(y1), v.px(x1) - v.px(x0), v.py(y0) - v.py(y1));
  }
  ctx.strokeStyle = COL.axis; ctx.lineWidth = 1; ctx.strokeRect(v.pad, v.pad, ctx.canvas.width - 2 * v.pad, ctx.canvas.height - 2 * v.pad);
  retinaGrid(ctx, v, r);
  ctx.lineWidth = 1.5;
  for (const [cells, color, plus] of [[u.exc, "#1b7837", true], [u.inh, "#762a83", false]]) {
    ctx.strokeStyle = color;
    for (const k of cells) {
      const c = cellBox(r, k), x = v.px((c[0] + c[1]) / 2), y = v.py((c[2] + c[3]) / 2);
      ctx.beginPath();
      if (plus) { ctx.moveTo(x - 4, y); ctx.lineTo(x + 4, y); ctx.moveTo(x, y - 4); ctx.lineTo(x, y + 4); } else ctx.rect(x - 3.5, y - 3.5, 7, 7);
      ctx.stroke();
    }
  }
}

// drawTrace shows the trace and marks the line of the current step.
function drawTrace(fr) {
  const pre = $("trace");
  pre.textContent = "";
  if (!fr) return;
  const lines = fr.text.split("\n");
  let marked = null;
  for (const l of lines) {
    const span = document.createElement("span");
    span.textContent = l + "\n";
    // A table's row (step epoch sample …), or a "step N …" line.
    const m = /^\s+(\d+)\s+\d+\s+\d/.exec(l) || /^step (\d+)\b/.exec(l);
    if (m && Number(m[1]) === fr.frame) {
      span.className = "now";
      marked = span;
    }
    pre.appendChild(span);
  }
  // Scroll the trace's own box, never the page: the marked line goes to
  // the middle of the box (scrollIntoView would scroll the window too).
  if (marked) pre.scrollTop = Math.max(0, marked.offsetTop - (pre.clientHeight - marked.offsetHeight) / 2);
}

function stop() {
  if (lab.timer) clearInterval(lab.timer);
  lab.timer = null;
  document.body.dataset.running = "false";
}

async function stepOn() {
  if (lab.busy) return; // the last step's answer is still on its way
  if (!lab.frame || lab.at >= lab.frame.frames - 1) {
    stop();
    return;
  }
  lab.busy = true;
  try {
    await show(lab.at + 1);
  } finally {
    lab.busy = false;
  }
}

// The page's whole state lives in the address (after #): the data (an
// example, the points themselves, or a generator and its seed), the
// learner and its settings, and the step shown. Opened anywhere, the
// address shows the same thing.
const CONTROLS = {
  learner: "l", eps: "eps", bias: "bias", order: "order", seed: "seed", linesearch: "ls", start: "start",
  kernel: "k", C: "C", hard: "hard", loss: "loss", batch: "batch", rule: "rule", units: "u", unitkind: "uk",
};

function writeURL() {
  const q = new URLSearchParams();
  if (lab.example) q.set("ex", lab.example);
  else if (lab.gen) {
    q.set("gen", lab.gen.kind); q.set("n", lab.gen.n); q.set("noise", lab.gen.noise);
    q.set("ln", lab.gen.label_noise); q.set("gs", lab.gen.seed);
  } else q.set("pts", lab.points.map((p) => p.join(",")).join(";"));
  if (!lab.example && nclasses() > 2) q.set("cl", String(nclasses()));
  for (const [id, key] of Object.entries(CONTROLS)) {
    const el = $(id);
    const v = el.type === "checkbox" ? (el.checked ? "1" : "") : el.value;
    if (v !== (el.dataset.default ?? "")) q.set(key, v);
  }
  q.set("f", String(lab.at));
  const url = location.pathname + location.search + "#" + q.toString();
  if (url !== location.pathname + location.search + location.hash) history.replaceState(null, "", url);
  document.body.dataset.url = location.href;
}

// readURL sets the page from the address; it returns the step to show.
function readURL() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (!location.hash) return 0;
  // A setting the address leaves out is at its default (writeURL leaves
  // defaults out), whatever the page showed before.
  for (const [id, key] of Object.entries(CONTROLS)) {
    const el = $(id);
    const v = q.has(key) ? q.get(key) : (el.dataset.default ?? "");
    if (el.type === "checkbox") el.checked = v === "1";
    else el.value = v;
  }
  lab.example = "";
  lab.gen = null;
  const cl = Number(q.get("cl"));
  $("classes").value = String(cl >= 3 && cl <= 4 ? cl : 2);
  if (q.has("ex")) lab.example = q.get("ex");
  else if (q.has("gen")) {
    lab.gen = { kind: q.get("gen"), n: Number(q.get("n")) || 60, noise: Number(q.get("noise")) || 0, label_noise: Number(q.get("ln")) || 0, seed: Number(q.get("gs")) || 0, classes: nclasses() };
    $("genkind").value = lab.gen.kind; $("genn").value = lab.gen.n; $("gennoise").value = lab.gen.noise;
    $("genlabel").value = lab.gen.label_noise; $("genseed").value = lab.gen.seed;
  } else if (q.has("pts")) {
    lab.points = q.get("pts").split(";").filter((t) => t).map((t) => t.split(",").map(Number));
  }
  lab.nclasses = nclasses();
  const f = Number(q.get("f"));
  return Number.isInteger(f) && f >= -1 ? f : 0;
}

// pointsShown returns the points on screen as [x1, x2, ±1].
function pointsShown() {
  if (!lab.frame) return lab.points.slice();
  const fr = lab.frame;
  if (fr.classes) return fr.points.map((p, i) => [p[0], p[1], Number(fr.classes[fr.labels[i]])]);
  return fr.points.map((p, i) => [p[0], p[1], fr.labels[i]]);
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// parsePoints reads points of 2 to 4 classes from CSV ("x1,x2,label", an
// optional header) or libsvm ("label 1:x1 2:x2") text. Two classes: the
// larger label (as a number), or the first met, is +. More: the labels in
// numeric order (or as first met) are classes 1 to 4. It returns the
// points and the number of classes.
function parsePoints(text) {
  const rows = [];
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  lines.forEach((l, n) => {
    let x1, x2, label;
    if (/^\S+\s+\d+:/.test(l)) {
      const f = l.split(/\s+/);
      label = f[0];
      const v = { 1: 0, 2: 0 };
      for (const kv of f.slice(1)) { const [k, x] = kv.split(":"); v[k] = Number(x); }
      x1 = v[1]; x2 = v[2];
    } else {
      const f = l.split(/[,;\t ]+/);
      if (f.length !== 3) throw new Error(`line ${n + 1}: want x1,x2,label`);
      if (n === 0 && f.slice(0, 2).some((t) => !Number.isFinite(Number(t)))) return; // a header
      [x1, x2, label] = [Number(f[0]), Number(f[1]), f[2]];
    }
    if (!Number.isFinite(x1) || !Number.isFinite(x2)) throw new Error(`line ${n + 1}: the coordinates are not numbers`);
    rows.push([x1, x2, label]);
  });
  const labels = [...new Set(rows.map((r) => r[2]))];
  if (labels.length < 2 || labels.length > 4) throw new Error(`${labels.length} classes; the lab takes 2 to 4`);
  if (rows.length > 200) throw new Error(`${rows.length} points; the page takes at most 200`);
  if (labels.length > 2) {
    if (labels.every((l) => Number.isFinite(Number(l)))) labels.sort((a, b) => Number(a) - Number(b));
    return { points: rows.map((r) => [r[0], r[1], labels.indexOf(r[2]) + 1]), classes: labels.length };
  }
  let plus = labels[0];
  if (labels.every((l) => Number.isFinite(Number(l)))) plus = String(Math.max(...labels.map(Number)));
  if (rows.length > 200) throw new Error(`${rows.length} points; the page takes at most 200`);
  return { points: rows.map((r) => [r[0], r[1], String(Number(r[2])) === plus || r[2] === plus ? 1 : -1]), classes: 2 };
}

// keys: → or n step, ← or b back, r run or pause, Home reset, End the end;
// not while typing in a field.
function onKey(ev) {
  const t = ev.target;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "radio" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  const act = { ArrowRight: "step", n: "step", ArrowLeft: "back", b: "back", r: "runpause", Home: "reset", End: "end" }[ev.key];
  if (!act) return;
  ev.preventDefault();
  if (act === "runpause") (document.body.dataset.running === "true" ? $("pause") : $("run")).click();
  else $(act).click();
}

async function init() {
  for (const [id] of Object.entries(CONTROLS)) {
    const el = $(id);
    el.dataset.default = el.type === "checkbox" ? (el.checked ? "1" : "") : el.value;
  }
  let data;
  if (STATIC) {
    await startWasm();
    data = JSON.parse(window.mark1LabCatalog());
    for (const a of document.querySelectorAll("a.back")) a.hidden = true; // no machine here
  } else {
    data = await (await fetch("api/lab/examples")).json();
  }
  lab.examples = data.examples;
  const sel = $("example");
  for (const e of lab.examples) {
    const o = document.createElement("option");
    o.value = e.name; o.textContent = e.name;
    sel.appendChild(o);
  }
  const mine = document.createElement("option");
  mine.value = ""; mine.textContent = "your points (click to place)";
  sel.appendChild(mine);
  const gen = document.createElement("option");
  gen.value = "*gen"; gen.textContent = "drawn data (generator)";
  sel.appendChild(gen);
  for (const g of data.generators) {
    const o = document.createElement("option");
    o.value = o.textContent = g;
    $("genkind").appendChild(o);
  }
  const teach = () => {
    const e = lab.examples.find((x) => x.name === lab.example);
    const k = nclasses();
    $("teaches").textContent = e ? e.teaches : lab.gen ? `${lab.gen.kind}${k > 2 ? `, ${k} classes` : ""}, drawn from seed ${lab.gen.seed}; click on x-space to add points to it` :
      k > 2 ? `click on x-space to place points of classes 1 to ${k} (pick the class above)` : "click on x-space to place + and − points";
    sel.value = lab.example || (lab.gen ? "*gen" : "");
  };
  lab.teach = teach;
  sel.addEventListener("change", () => {
    stop();
    // Looking at an example keeps your points: they come back with "your points".
    if (sel.value === "*gen") { readGen(); lab.example = ""; }
    else { lab.example = sel.value; lab.gen = null; }
    applyControls();
    teach();
    show(0);
  });
  const readGen = () => {
    lab.gen = {
      kind: $("genkind").value, n: Math.floor(Number($("genn").value)) || 60, noise: Number($("gennoise").value) || 0,
      label_noise: Number($("genlabel").value) || 0, seed: Math.max(0, Math.floor(Number($("genseed").value) || 0)),
    };
    if (nclasses() > 2) lab.gen.classes = nclasses();
  };
  $("generate").addEventListener("click", () => { stop(); readGen(); lab.example = ""; applyControls(); teach(); show(0); });
  for (const id of ["learner", "eps", "bias", "order", "seed", "linesearch", "start", "kernel", "C", "hard", "loss", "batch", "units", "unitkind"]) {
    $(id).addEventListener("change", () => { stop(); applyControls(); show(0); });
  }
  lab.nclasses = nclasses();
  $("classes").addEventListener("change", () => {
    stop();
    if (lab.example && nclasses() > 2) {
      // The notes' examples are two-class: 3 or 4 classes draw data of
      // that many (the settings under "Or draw data"), as Generate does.
      readGen(); lab.example = ""; lab.nclasses = nclasses();
      applyControls(); teach(); show(0);
      return;
    }
    const gone = relabel(lab.nclasses, nclasses());
    lab.nclasses = nclasses();
    if (lab.gen) readGen();
    applyControls();
    teach();
    show(0).then(() => { if (gone) showError(`${gone} points of the classes beyond ${nclasses()} were taken out`); });
  });
  $("rule").addEventListener("change", () => { writeURL(); draw(); });
  $("reset").addEventListener("click", () => { stop(); show(0); });
  $("step").addEventListener("click", () => { stop(); stepOn(); });
  $("back").addEventListener("click", () => { stop(); if (lab.at > 0) show(lab.at - 1); });
  $("end").addEventListener("click", () => { stop(); show(-1); });
  $("pause").addEventListener("click", stop);
  $("run").addEventListener("click", () => {
    stop();
    document.body.dataset.running = "true";
    lab.timer = setInterval(stepOn, runEvery);
  });
  $("clear").addEventListener("click", () => {
    stop();
    lab.points = [];
    lab.example = "";
    lab.gen = null;
    applyControls();
    teach();
    show(0);
  });
  $("savecsv").addEventListener("click", () => {
    download("points.csv", "x1,x2,label\n" + pointsShown().map((p) => `${p[0]},${p[1]},${p[2]}`).join("\n") + "\n");
  });
  $("savelibsvm").addEventListener("click", () => {
    const multi = lab.frame ? Boolean(lab.frame.classes) : nclasses() > 2;
    download("points.libsvm", pointsShown().map((p) => `${multi ? p[2] : p[2] > 0 ? "+1" : "-1"} 1:${p[0]} 2:${p[1]}`).join("\n") + "\n");
  });
  $("loadpoints").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    try {
      const got = parsePoints(await file.text());
      lab.points = got.points;
      $("classes").value = String(got.classes);
      applyControls();
    } catch (e) {
      showError(`${file.name}: ${e.message}`);
      return;
    } finally {
      ev.target.value = "";
    }
    stop();
    lab.example = "";
    lab.gen = null;
    teach();
    show(0);
  });
  $("xspace").addEventListener("click", (ev) => {
    const v = lab.xview;
    if (!v) return;
    const r = ev.target.getBoundingClientRect();
    const px = (ev.clientX - r.left) * (ev.target.width / r.width), py = (ev.clientY - r.top) * (ev.target.height / r.height);
    const x = Math.round(v.ix(px) * 10) / 10, y = Math.round(v.iy(py) * 10) / 10;
    if (x < v.box[0] || x > v.box[1] || y < v.box[2] || y > v.box[3]) return;
    if (lab.example || lab.gen) {
      // Placing a point on an example or drawn data makes them your points
      // (an example's two classes, drawn data's classes).
      lab.points = pointsShown();
      if (lab.example) { $("classes").value = "2"; lab.nclasses = 2; }
      lab.example = "";
      lab.gen = null;
      applyControls();
      teach();
    }
    const label = pickedLabel(ev.shiftKey);
    lab.points.push([x, y, label]);
    stop();
    show(0);
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => { stop(); const f = readURL(); applyControls(); teach(); show(f); });
  document.body.dataset.running = "false";
  const f = readURL();
  applyControls();
  teach();
  await show(f);
}

init().catch((e) => showError(`the lab could not start: ${e && e.message ? e.message : e}`));
