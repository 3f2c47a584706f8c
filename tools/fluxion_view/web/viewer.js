// fluxion-view's page (docs/viewer.md). It fetches the scene's description once (scene.json),
// then draws the frames the server streams over the WebSocket: one binary message per state,
// positions as float64 (the frame layout of tools/fluxion_view/frame.h). It asks for the next
// frame only after drawing one, in requestAnimationFrame, so at most one frame per display
// refresh and never a queue. Commands go back as small JSON texts.
'use strict';

// What the browser tests read (tests/tools/viewer_test.py), and what a curious user may too.
const fluxionView = (window.fluxionView = {
  scene: null,        // scene.json
  status: null,       // the last status event
  step: -1, time: 0,  // of the frame drawn last
  framesDrawn: 0,
  keepFrames: false,  // when true, every frame drawn is kept (base64) in `frames`
  frames: [],
  logs: [],
  fps: 0, stepsPerSecond: 0,
  updateMs: 0, renderMs: 0,  // the last frame's buffer update and drawing [ms]
  connected: false, refused: false,
  // The points of the page's 3-D scene: the sum of each mechanical object's vertex buffer.
  vertexCount() {
    let count = 0;
    for (const part of parts) count += part.points.geometry.attributes.position.count;
    return count;
  },
  send(command) { send(command); },
});

const $ = (id) => document.getElementById(id);
const parts = [];  // per mechanical object: its three.js objects and buffers
let three = null;  // renderer, scene, camera, controls
let socket = null;
let pending = null;  // the newest frame received, not yet drawn
let needsRender = true;
let strainScale = 0.1;
const energies = [];  // [time, kinetic, potential]

// Diverging colour map of scene-runner's pictures: blue (compressed) through grey to red.
function strainColour(s, out, at) {
  s = Math.max(-1, Math.min(1, s));
  const t = Math.abs(s);
  const end = s < 0 ? [0.1, 0.3, 0.9] : [0.9, 0.15, 0.1];
  out[at] = 0.55 + t * (end[0] - 0.55);
  out[at + 1] = 0.55 + t * (end[1] - 0.55);
  out[at + 2] = 0.55 + t * (end[2] - 0.55);
}

function drawLegend() {
  const bar = $('legend-bar');
  const g = bar.getContext('2d');
  const rgb = [0, 0, 0];
  for (let x = 0; x < bar.width; ++x) {
    strainColour((2 * x) / (bar.width - 1) - 1, rgb, 0);
    g.fillStyle = `rgb(${rgb.map((c) => Math.round(255 * c)).join(',')})`;
    g.fillRect(x, 0, 1, bar.height);
  }
  const percent = `${+(strainScale * 100).toPrecision(3)}%`;
  $('legend-min').textContent = `−${percent}`;
  $('legend-max').textContent = `+${percent}`;
}

// The three.js objects of one mechanical object.
function buildPart(object, index) {
  const n = object.points;
  const positions = new Float32Array(3 * n);
  const part = { object, index, positions, mesh: null, lines: null, held: null };
  // One attribute for the points and the triangles: uploaded once per frame.
  part.positionAttribute = new THREE.BufferAttribute(positions, 3);
  const pointGeometry = new THREE.BufferGeometry();
  pointGeometry.setAttribute('position', part.positionAttribute);
  const drawnAsPoints = object.triangles.length === 0 && object.segments.length === 0;
  part.points = new THREE.Points(
    pointGeometry,
    new THREE.PointsMaterial({ color: 0x333333, size: drawnAsPoints ? 6 : 2, sizeAttenuation: false }));
  part.points.userData.fluxionObject = object.id;
  three.scene.add(part.points);

  if (object.triangles.length > 0) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', part.positionAttribute);
    geometry.setIndex(new THREE.BufferAttribute(new Uint32Array(object.triangles), 1));
    // Flat shading: the normals come from the fragment shader's derivatives, none computed here.
    const material = new THREE.MeshPhongMaterial({
      color: 0x9bb7d4, specular: 0x111111, shininess: 10, side: THREE.DoubleSide, flatShading: true,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
    part.mesh = new THREE.Mesh(geometry, material);
    three.scene.add(part.mesh);
  }
  if (object.segments.length > 0) {
    const count = object.segments.length / 2;
    const geometry = new THREE.BufferGeometry();
    part.linePositions = new Float32Array(6 * count);
    part.lineColours = new Float32Array(6 * count);
    geometry.setAttribute('position', new THREE.BufferAttribute(part.linePositions, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(part.lineColours, 3));
    part.lines = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: THREE.VertexColors }));
    three.scene.add(part.lines);
  }
  if (object.held.length > 0) {
    part.heldPositions = new Float32Array(3 * object.held.length);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(part.heldPositions, 3));
    part.held = new THREE.Points(geometry, new THREE.PointsMaterial({ color: 0x000000, size: 8, sizeAttenuation: false }));
    three.scene.add(part.held);
  }
  // Never culled: the objects move, and a bounding sphere per frame would cost a pass over them.
  for (const drawn of [part.points, part.mesh, part.lines, part.held]) if (drawn) drawn.frustumCulled = false;
  return part;
}

// Positions of one object from a frame block (float64, `dimension` per point) into the buffers.
function updatePart(part, values) {
  const { object, positions } = part;
  const d = object.dimension, n = object.points;
  for (let i = 0; i < n; ++i) {
    positions[3 * i] = values[d * i];
    positions[3 * i + 1] = d > 1 ? values[d * i + 1] : 0;
    positions[3 * i + 2] = d > 2 ? values[d * i + 2] : 0;
  }
  part.positionAttribute.needsUpdate = true;
  if (part.lines) {
    const seg = object.segments, rest = object.rest, lp = part.linePositions, lc = part.lineColours;
    for (let k = 0, count = rest.length; k < count; ++k) {
      const a = 3 * seg[2 * k], b = 3 * seg[2 * k + 1];
      const dx = positions[b] - positions[a], dy = positions[b + 1] - positions[a + 1],
        dz = positions[b + 2] - positions[a + 2];
      lp[6 * k] = positions[a]; lp[6 * k + 1] = positions[a + 1]; lp[6 * k + 2] = positions[a + 2];
      lp[6 * k + 3] = positions[b]; lp[6 * k + 4] = positions[b + 1]; lp[6 * k + 5] = positions[b + 2];
      const strain = rest[k] > 0 ? Math.sqrt(dx * dx + dy * dy + dz * dz) / rest[k] - 1 : 0;
      strainColour(strain / strainScale, lc, 6 * k);
      lc[6 * k + 3] = lc[6 * k]; lc[6 * k + 4] = lc[6 * k + 1]; lc[6 * k + 5] = lc[6 * k + 2];
    }
    part.lines.geometry.attributes.position.needsUpdate = true;
    part.lines.geometry.attributes.color.needsUpdate = true;
  }
  if (part.held) {
    object.held.forEach((i, k) => {
      part.heldPositions[3 * k] = positions[3 * i];
      part.heldPositions[3 * k + 1] = positions[3 * i + 1];
      part.heldPositions[3 * k + 2] = positions[3 * i + 2];
    });
    part.held.geometry.attributes.position.needsUpdate = true;
  }
}

let contacts = null;
function updateContacts(values) {
  const count = values ? values.length / 3 : 0;
  if (!contacts) {
    contacts = new THREE.Points(new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0xff8800, size: 6, sizeAttenuation: false }));
    contacts.frustumCulled = false;
    three.scene.add(contacts);
  }
  contacts.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(values || []), 3));
  contacts.visible = count > 0;
}

// Frame layout: frame.h. Returns false for a message that is not one.
function drawFrame(buffer) {
  const view = new DataView(buffer);
  if (buffer.byteLength < 40 || view.getUint32(0, true) !== 0x31565846) return false;  // "FXV1"
  const blocks = view.getUint32(4, true);
  const step = Number(view.getBigInt64(8, true));
  const time = view.getFloat64(16, true);
  const kinetic = view.getFloat64(24, true), potential = view.getFloat64(32, true);
  let at = 40, contactValues = null;
  for (let b = 0; b < blocks; ++b) {
    const index = view.getUint32(at, true), count = view.getUint32(at + 4, true);
    const values = new Float64Array(buffer, at + 8, count);
    if (index === 0xffffffff) contactValues = values;
    else if (index < parts.length) updatePart(parts[index], values);
    at += 8 + 8 * count;
  }
  if (contactValues || contacts) updateContacts(contactValues);
  if (fluxionView.keepFrames) fluxionView.frames.push({ step, base64: toBase64(buffer) });
  if (fluxionView.framesDrawn === 0) fitCamera();
  if (step < fluxionView.step) energies.length = 0;
  fluxionView.step = step;
  fluxionView.time = time;
  fluxionView.framesDrawn += 1;
  if (!energies.length || energies[energies.length - 1][0] !== time) {
    energies.push([time, kinetic, potential]);
    if (energies.length > 600) energies.shift();
  }
  $('time').textContent = time.toFixed(4);
  $('step').textContent = step;
  $('energy-values').textContent =
    `K ${kinetic.toPrecision(4)} V ${potential.toPrecision(4)} E ${(kinetic + potential).toPrecision(4)}`;
  drawEnergies();
  return true;
}

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function drawEnergies() {
  const canvas = $('energy'), g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (energies.length < 2) return;
  let low = Infinity, high = -Infinity;
  for (const [, k, v] of energies) {
    low = Math.min(low, k, v, k + v);
    high = Math.max(high, k, v, k + v);
  }
  if (high - low < 1e-12) { high += 0.5; low -= 0.5; }
  const t0 = energies[0][0], t1 = energies[energies.length - 1][0] || t0 + 1;
  const x = (t) => ((t - t0) / (t1 - t0 || 1)) * (canvas.width - 4) + 2;
  const y = (e) => canvas.height - 2 - ((e - low) / (high - low)) * (canvas.height - 4);
  for (const [colour, value] of [['#d62728', (s) => s[1]], ['#1f77b4', (s) => s[2]], ['#222', (s) => s[1] + s[2]]]) {
    g.strokeStyle = colour;
    g.beginPath();
    energies.forEach((s, i) => (i ? g.lineTo(x(s[0]), y(value(s))) : g.moveTo(x(s[0]), y(value(s)))));
    g.stroke();
  }
}

// The camera looks at the scene's box from across gravity (up is against gravity).
function fitCamera() {
  const box = new THREE.Box3();
  for (const part of parts) {
    part.points.geometry.computeBoundingBox();
    box.union(part.points.geometry.boundingBox);
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const centre = box.getCenter(new THREE.Vector3());
  const size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-3);
  const g = new THREE.Vector3().fromArray(fluxionView.scene.gravity);
  const up = g.lengthSq() > 0 ? g.clone().normalize().negate() : new THREE.Vector3(0, 1, 0);
  three.camera.up.copy(up);
  // A viewing direction across `up`, a little from above.
  let side = new THREE.Vector3(1, 0.6, 1.4);
  side.sub(up.clone().multiplyScalar(side.dot(up))).normalize();
  side.add(up.clone().multiplyScalar(0.5)).normalize();
  three.camera.near = size * 1e-3;
  three.camera.far = size * 100;
  three.camera.position.copy(centre).add(side.multiplyScalar(size * 1.3));
  three.camera.updateProjectionMatrix();
  three.controls.target.copy(centre);
  three.controls.update();
  // Axes at the box's corner, gravity's arrow beside them, both scaled to the scene.
  const axes = new THREE.AxesHelper(size * 0.15);
  axes.position.copy(box.min);
  three.scene.add(axes);
  if (g.lengthSq() > 0) {
    // Beside the axes, across gravity, pointing down from a little above them.
    let across = new THREE.Vector3(1, 0, 0);
    if (Math.abs(across.dot(up)) > 0.9) across.set(0, 0, 1);
    across.sub(up.clone().multiplyScalar(across.dot(up))).normalize();
    const origin = box.min.clone().sub(across.multiplyScalar(size * 0.15)).add(up.clone().multiplyScalar(size * 0.2));
    three.scene.add(new THREE.ArrowHelper(g.clone().normalize(), origin, size * 0.2, 0x8c1aa6, size * 0.05, size * 0.03));
  }
}

// Lines and triangles beyond which the view is drawn without multisampling: on a software
// renderer (SwiftShader, a machine without a GPU) it costs more than the scene itself.
const kAntialiasedElements = 100000;

function setupThree(description) {
  const canvas = $('canvas');
  const elements = description.objects.reduce((n, o) => n + o.segments.length / 2 + o.triangles.length / 3, 0);
  const renderer = new THREE.WebGLRenderer({
    canvas, antialias: elements < kAntialiasedElements, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0xffffff);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const light = new THREE.DirectionalLight(0xffffff, 0.6);
  camera.add(light);
  scene.add(camera);
  const controls = new THREE.OrbitControls(camera, canvas);
  controls.screenSpacePanning = true;
  controls.addEventListener('change', () => (needsRender = true));
  three = { renderer, scene, camera, controls };
  const resize = () => {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
    needsRender = true;
  };
  window.addEventListener('resize', resize);
  resize();
}

// Frames drawn and steps taken per second, over the last second.
let rateStart = performance.now(), rateFrames = 0, rateStep = 0;
function loop(now) {
  if (pending) {
    const frame = pending;
    pending = null;
    const start = performance.now();
    if (drawFrame(frame)) needsRender = true;
    fluxionView.updateMs = performance.now() - start;
    rateFrames += 1;
    send({ cmd: 'frame' });  // ready for the next
  }
  if (needsRender) {
    const start = performance.now();
    three.renderer.render(three.scene, three.camera);
    three.renderer.getContext().finish();  // the time drawing takes, not only queueing it
    fluxionView.renderMs = performance.now() - start;
    needsRender = false;
  }
  if (now - rateStart >= 1000) {
    const seconds = (now - rateStart) / 1000;
    fluxionView.fps = rateFrames / seconds;
    fluxionView.stepsPerSecond = Math.max(0, fluxionView.step - rateStep) / seconds;
    $('fps').textContent = fluxionView.fps.toFixed(0);
    $('rate').textContent = fluxionView.stepsPerSecond.toFixed(0);
    rateStart = now;
    rateFrames = 0;
    rateStep = Math.max(fluxionView.step, 0);
  }
  requestAnimationFrame(loop);
}

function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
}

function log(level, text) {
  fluxionView.logs.push({ level, text });
  const line = document.createElement('div');
  line.className = level;
  line.textContent = text;
  $('log').appendChild(line);
  $('log').scrollTop = $('log').scrollHeight;
}

function onStatus(status) {
  fluxionView.status = status;
  $('play').textContent = status.playing ? '❚❚ pause' : '▶ play';
  $('play').classList.toggle('on', status.playing);
  $('record').textContent = status.recording ? '■ stop recording' : '● record';
  $('record').classList.toggle('on', !!status.recording);
  $('record').title = status.recording ? `recording into ${status.recording}` : 'write the trajectory as scene-runner --output does';
  if (status.solver) $('solver').value = status.solver;
  const speed = $('speed');
  if (Number(speed.value) !== status.speed) speed.value = String(status.speed);
}

function connect(attempt) {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => {
    fluxionView.connected = true;
    $('connection').textContent = '';
    $('connection').classList.remove('lost');
    send({ cmd: 'frame' });
  };
  socket.onmessage = (message) => {
    if (typeof message.data !== 'string') {
      pending = message.data;  // the server sends the next only when asked: none is lost
      return;
    }
    const event = JSON.parse(message.data);
    if (event.type === 'status') onStatus(event);
    else if (event.type === 'log') log(event.level, event.text);
    else if (event.type === 'reset') { energies.length = 0; log('info', 'reset to step 0'); }
  };
  socket.onclose = () => {
    const wasConnected = fluxionView.connected;
    fluxionView.connected = false;
    if (!wasConnected && attempt < 3) {  // a reload: the previous page may still be closing
      setTimeout(() => connect(attempt + 1), 500);
      return;
    }
    fluxionView.refused = !wasConnected;
    $('connection').textContent = wasConnected
      ? 'disconnected: fluxion-view has stopped'
      : 'not connected: another page is already connected to this fluxion-view (one page at a time), or it has stopped';
    $('connection').classList.add('lost');
  };
}

// The scene graph: nodes and their components; a component's data when selected.
function buildTree(scene) {
  const root = document.createElement('ul');
  const lists = new Map();
  for (const node of scene.nodes) {
    const item = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'node-name';
    name.textContent = node.path.split('/').pop();
    item.appendChild(name);
    const children = document.createElement('ul');
    item.appendChild(children);
    for (const component of node.components) {
      const li = document.createElement('li');
      li.className = 'component';
      li.dataset.path = component.path;
      li.innerHTML = '';
      li.append(`${component.type} `);
      if (component.name !== component.type) li.append(`"${component.name}" `);
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = component.kind + (component.runtime.length ? ' · editable' : '');
      li.appendChild(kind);
      li.addEventListener('click', () => select(component, li));
      children.appendChild(li);
    }
    const parent = lists.get(node.path.substring(0, node.path.lastIndexOf('/'))) || root;
    parent.appendChild(item);
    lists.set(node.path, children);
  }
  $('tree').appendChild(root);
}

function select(component, item) {
  document.querySelectorAll('.component.selected').forEach((e) => e.classList.remove('selected'));
  item.classList.add('selected');
  const type = fluxionView.scene.types[component.sofa_type] || {};
  const help = new Map((type.fields || []).map((f) => [f.name, f]));
  const details = $('details');
  details.innerHTML = '';
  const heading = document.createElement('div');
  heading.innerHTML = '<b></b> <span class="kind"></span><div class="help"></div>';
  heading.querySelector('b').textContent = component.path;
  heading.querySelector('.kind').textContent =
    `${component.sofa_type} (${component.kind}), line ${component.line}${type.origin ? ', ' + type.origin : ''}`;
  heading.querySelector('.help').textContent = type.summary || '';
  details.appendChild(heading);
  const table = document.createElement('table');
  const given = new Map(component.attributes);
  const row = (name, value, text) => {
    const tr = table.insertRow();
    tr.insertCell().textContent = name;
    const cell = tr.insertCell();
    if (typeof value === 'string') cell.textContent = value; else cell.appendChild(value);
    const h = tr.insertCell();
    h.className = 'help';
    h.textContent = text;
  };
  for (const [name, value] of component.attributes)
    if (!component.runtime.includes(name)) row(name, value, help.has(name) ? help.get(name).help : '');
  for (const field of component.runtime) {
    const box = document.createElement('span');
    const input = document.createElement('input');
    input.dataset.field = field;
    input.value = given.has(field) ? given.get(field) : help.has(field) ? help.get(field).default : '';
    const apply = document.createElement('button');
    apply.textContent = 'apply';
    apply.dataset.apply = field;
    apply.addEventListener('click', () => {
      const values = input.value.trim().split(/[\s,]+/).filter((s) => s.length).map(Number);
      if (values.some((v) => !Number.isFinite(v))) {
        log('error', `${component.path}.${field}: '${input.value}' is not a list of numbers`);
        return;
      }
      send({ cmd: 'set', component: component.path, field, values });
    });
    box.append(input, apply);
    row(`${field} ✎`, box, help.has(field) ? help.get(field).help + ' (applied at the next step)' : 'applied at the next step');
  }
  details.appendChild(table);
}

function setupControls(scene) {
  $('play').addEventListener('click', () => send({ cmd: fluxionView.status && fluxionView.status.playing ? 'pause' : 'play' }));
  $('step-button').addEventListener('click', () => send({ cmd: 'step', count: 1 }));
  $('reset').addEventListener('click', () => send({ cmd: 'reset' }));
  $('speed').addEventListener('change', (e) => send({ cmd: 'speed', value: Number(e.target.value) }));
  $('record').addEventListener('click', () => send({ cmd: 'record' }));
  $('strain-scale').addEventListener('change', (e) => {
    strainScale = Number(e.target.value);
    drawLegend();
  });
  const solver = $('solver');
  for (const name of scene.solvers) {
    const option = document.createElement('option');
    option.value = option.textContent = name;
    solver.appendChild(option);
  }
  if (scene.solver_nodes.length) solver.value = scene.solver_nodes[0].solver;
  solver.disabled = scene.solver_nodes.length === 0;
  solver.addEventListener('change', (e) => send({ cmd: 'solver', name: e.target.value }));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === ' ') { $('play').click(); e.preventDefault(); }
    else if (e.key === 's') $('step-button').click();
    else if (e.key === 'r') $('reset').click();
  });
}

async function main() {
  const response = await fetch('scene.json');
  const scene = await response.json();
  fluxionView.scene = scene;
  document.title = `fluxion-view: ${scene.scene.split('/').pop()}`;
  $('title').textContent = scene.scene;
  setupThree(scene);
  scene.objects.forEach((object, index) => parts.push(buildPart(object, index)));
  drawLegend();
  setupControls(scene);
  buildTree(scene);
  connect(0);
  requestAnimationFrame(loop);
}

main().catch((error) => log('error', `the page failed: ${error}`));
