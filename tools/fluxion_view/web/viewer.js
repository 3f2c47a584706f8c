// fluxion-view's page (docs/viewer.md). It fetches the scene's description once (scene.json),
// then draws the frames the server streams over the WebSocket: one binary message per state,
// positions as float32 (what WebGL draws), or float64 while `keepFrames` asks for the exact
// states (the frame layout of tools/fluxion_view/frame.h). It asks for the next
// frame only after drawing one, in requestAnimationFrame, so at most one frame per display
// refresh and never a queue. Commands go back as small JSON texts.
'use strict';

// What the browser tests read (tests/tools/viewer_test.py), and what a curious user may too.
const fluxionView = (window.fluxionView = {
  scene: null,        // scene.json
  status: null,       // the last status event
  step: -1, time: 0,  // of the frame drawn last
  framesDrawn: 0,
  keepFrames: false,  // when true, frames are asked for as float64 and each one drawn is kept
  frames: [],         // (base64) in `frames`
  logs: [],
  fps: 0, stepsPerSecond: 0,
  updateMs: 0, renderMs: 0,  // the last frame's buffer update and drawing [ms]
  detail: [],         // what the level of detail draws, per object drawn merged (the legend's text)
  ticks: 0,           // animation frames the browser has given the page (drawn or not)
  // Where a frame's time goes, averaged over the last second (docs/viewer.md "Measured"): on
  // the page, from asking for a frame until it arrives (waitMs), until the next animation frame
  // picks it up (queueMs), decoding it into the buffers (updateMs), uploading and drawing it
  // (renderMs, up to gl.finish), and the time between two frames drawn (frameMs); `server` is
  // the server's own "timing" events (step_ms, encode_ms, steps_per_frame, write_ms).
  timings: {},
  server: {},
  connected: false, refused: false,
  // The points of the page's 3-D scene: the sum of each mechanical object's vertex buffer.
  vertexCount() {
    let count = 0;
    for (const part of parts) count += part.points.geometry.attributes.position.count;
    return count;
  },
  send(command) { send(command); },
  // Frames drawn that showed a new state (a step other than the previous frame's).
  newStates: 0,
  // The time [ms] drawing the current view takes, uploads excluded (nothing changed since the
  // last draw), averaged over `repeats` draws; with `empty`, a cleared canvas only: the
  // renderer's floor. For the frame-rate measurement (docs/viewer.md "Measured").
  drawMs(repeats, empty) {
    const scene = empty ? new THREE.Scene() : three.scene;
    const gl = three.renderer.getContext();
    three.renderer.render(scene, three.camera);
    gl.finish();
    const start = performance.now();
    for (let k = 0; k < repeats; ++k) {
      three.renderer.render(scene, three.camera);
      gl.finish();
    }
    needsRender = true;
    return (performance.now() - start) / repeats;
  },
});

const $ = (id) => document.getElementById(id);
const parts = [];  // per mechanical object: its three.js objects and buffers
let three = null;  // renderer, scene, camera, controls
let socket = null;
let pending = null;  // the newest frame received, not yet drawn
let levelsStale = false;  // the camera moved: the level of detail may change
let gpuStrain = true;  // the segments' strain computed in the vertex shader (float textures there)
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

// Springs coloured by strain on the GPU: each segment is two vertices whose `position` attribute
// is not a position but (this end's point index, the other end's, the rest length), uploaded
// once. The vertex shader reads both ends' positions from a float texture of the object's points
// (uploaded once per frame, the same Float32Array as the triangles' vertex buffer) and colours the
// segment by its strain (l − l0)/l0 on the legend's scale: no per-frame work in JavaScript for
// the segments, and one upload of the points instead of 2 × 3 floats and 2 × 3 colours per
// segment. The strain is computed in float32 from float32 positions (a relative error ~1e-7 of
// l/l0, far below a colour's step).
const kSegmentVertexShader = `
uniform sampler2D points;
uniform vec2 pointsSize;   // the texture's width and height [texels]
uniform float strainScale; // strain at the ends of the colour scale
varying vec3 vColour;
vec3 point(float index) {
  float row = floor((index + 0.5) / pointsSize.x);
  float column = index - row * pointsSize.x;
  return texture2D(points, (vec2(column, row) + 0.5) / pointsSize).xyz;
}
void main() {
  vec3 here = point(position.x), there = point(position.y);
  float strain = position.z > 0.0 ? length(there - here) / position.z - 1.0 : 0.0;
  float s = clamp(strain / strainScale, -1.0, 1.0);
  vColour = mix(vec3(0.55), s < 0.0 ? vec3(0.1, 0.3, 0.9) : vec3(0.9, 0.15, 0.1), abs(s));
  gl_Position = projectionMatrix * modelViewMatrix * vec4(here, 1.0);
}`;
const kSegmentFragmentShader = `
varying vec3 vColour;
void main() { gl_FragColor = vec4(vColour, 1.0); }`;

const kMeshVertexShader = `
varying vec3 vView;
void main() {
  vec4 view = modelViewMatrix * vec4(position, 1.0);
  vView = view.xyz;
  gl_Position = projectionMatrix * view;
}`;
const kMeshFragmentShader = `
varying vec3 vView;
void main() {
  vec3 normal = normalize(cross(dFdx(vView), dFdy(vView)));
  float lit = 0.55 + 0.6 * abs(dot(normal, normalize(vec3(0.0, 0.5, 1.0))));
  gl_FragColor = vec4(min(lit, 1.0) * vec3(0.608, 0.718, 0.831), 1.0);
}`;

// Beyond this many points a mesh's or springs' vertices are not drawn as dots as well: they
// would only darken the lines and triangles drawn over them, at the cost of a draw of every point.
const kMostDottedPoints = 10000;

// The segments' geometry for the shader above: per segment two vertices, each (this end, the
// other end, the rest length).
function segmentGeometry(seg, rest) {
  const count = rest.length;
  const ends = new Float32Array(6 * count);
  for (let k = 0; k < count; ++k) {
    ends[6 * k] = ends[6 * k + 4] = seg[2 * k];
    ends[6 * k + 1] = ends[6 * k + 3] = seg[2 * k + 1];
    ends[6 * k + 2] = ends[6 * k + 5] = rest[k];
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(ends, 3));
  return geometry;
}

// Level of detail. Where an object's segments would be shorter on the screen than
// kSegmentPixels, drawing each of them costs time and shows a grey blur (without a GPU, the
// 256² cloth's 196 k lines and 130 k triangles take SwiftShader ~0.2 s per frame each). The page
// then draws a coarser copy of the object, by vertex clustering (Rossignac & Borrel, "Multi-
// resolution 3D approximations for rendering complex scenes", 1993): the points of the first
// frame are grouped in cubic cells of 2^L typical segment lengths, each cell drawn by its first
// point (its current position: the copy moves with the object), a segment or triangle kept when
// its ends fall in different cells (duplicates once). A merged segment's strain is that of the
// chain it stands for, (l − l0)/l0 between its two points, l0 their first-frame distance scaled
// by the merged segments' mean rest/first-frame length ratio. Level 0 is the object itself; the
// level follows the camera (zooming in refines it); the legend says when the drawing is merged.
const kSegmentPixels = 8;
const kMostLevels = 6;

function typicalLength(object) {
  let sum = 0;
  for (const r of object.rest) sum += r;
  return object.rest.length ? sum / object.rest.length : 0;
}

// The clustered copy of `part` at level L (≥ 1), from the reference positions `part.reference`.
function buildLevel(part, level) {
  const { object, reference } = part;
  const n = object.points, cell = part.spacing * (1 << level);
  const rep = new Int32Array(n);
  const cells = new Map();
  for (let i = 0; i < n; ++i) {
    const key = `${Math.floor(reference[4 * i] / cell)},${Math.floor(reference[4 * i + 1] / cell)},${Math.floor(reference[4 * i + 2] / cell)}`;
    let r = cells.get(key);
    if (r === undefined) cells.set(key, (r = i));
    rep[i] = r;
  }
  const distance = (a, b) => Math.hypot(reference[4 * b] - reference[4 * a],
    reference[4 * b + 1] - reference[4 * a + 1], reference[4 * b + 2] - reference[4 * a + 2]);
  const merged = new Map();  // key → [a, b, sum of rest/first-frame ratios, count]
  const seg = object.segments, rest = object.rest;
  for (let k = 0; k < rest.length; ++k) {
    let a = rep[seg[2 * k]], b = rep[seg[2 * k + 1]];
    if (a === b) continue;
    if (a > b) [a, b] = [b, a];
    const key = a * n + b;
    const length = distance(seg[2 * k], seg[2 * k + 1]);
    const ratio = length > 0 ? rest[k] / length : 1;
    const entry = merged.get(key);
    if (entry) { entry[2] += ratio; entry[3] += 1; } else merged.set(key, [a, b, ratio, 1]);
  }
  const coarseSegments = [], coarseRest = [];
  for (const [a, b, ratios, count] of merged.values()) {
    coarseSegments.push(a, b);
    coarseRest.push(distance(a, b) * (ratios / count));
  }
  const triangles = [], seen = new Set();
  const tri = object.triangles;
  for (let k = 0; k < tri.length; k += 3) {
    const a = rep[tri[k]], b = rep[tri[k + 1]], c = rep[tri[k + 2]];
    if (a === b || b === c || a === c) continue;
    const key = [a, b, c].sort((x, y) => x - y).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    triangles.push(a, b, c);
  }
  const result = { cells: cells.size, segments: coarseRest.length, triangles: triangles.length / 3 };
  if (part.lines && part.texture) result.lineGeometry = segmentGeometry(coarseSegments, coarseRest);
  if (part.mesh) {
    result.meshGeometry = new THREE.BufferGeometry();
    result.meshGeometry.setAttribute('position', part.positionAttribute);
    result.meshGeometry.setIndex(new THREE.BufferAttribute(new Uint32Array(triangles), 1));
  }
  return result;
}

// The level the camera asks for: the coarsest that keeps segments at least kSegmentPixels long
// on the screen, 0 when they already are (or the object has no segments to merge).
function wantedLevel(part) {
  if (!part.reference || !part.spacing || !part.texture) return 0;
  const camera = three.camera;
  const distance = Math.max(camera.position.distanceTo(part.centre), camera.near);
  const focal = three.renderer.domElement.height / 2 / Math.tan((camera.fov * Math.PI) / 360);
  const pixels = (part.spacing * focal) / distance;
  let level = 0;
  while (level < kMostLevels && pixels * (1 << level) < kSegmentPixels) ++level;
  return level;
}

// Draws each object at the level the camera asks for (building it the first time).
function applyLevels() {
  const notes = [];
  for (const part of parts) {
    if (!part.levels) continue;  // no frame drawn yet
    const level = wantedLevel(part);
    if (level !== part.level) {
      if (!part.levels[level]) part.levels[level] = buildLevel(part, level);
      const chosen = part.levels[level];
      if (part.lines && chosen.lineGeometry) part.lines.geometry = chosen.lineGeometry;
      if (part.mesh && chosen.meshGeometry) part.mesh.geometry = chosen.meshGeometry;
      part.level = level;
    }
    if (level > 0) {
      const l = part.levels[level];
      notes.push(`${part.object.id}: ${l.cells} of ${part.object.points} points, ${l.segments} of ` +
        `${part.object.rest.length} segments, ${l.triangles} of ${part.object.triangles.length / 3} triangles drawn ` +
        `(cells of ${1 << level} segment lengths: segments under ${kSegmentPixels} px merged; zoom in for more)`);
    }
  }
  fluxionView.detail = notes;
  $('detail').textContent = notes.join(' · ');
}

// Keeps the first frame's positions of every object with segments: the cells of its levels.
function keepReference(part) {
  part.reference = part.positions.slice();
  part.spacing = typicalLength(part.object);
  const box = new THREE.Box3().setFromBufferAttribute(part.positionAttribute);
  part.centre = box.getCenter(new THREE.Vector3());
  part.level = 0;
  part.levels = [{ lineGeometry: part.lines && part.lines.geometry, meshGeometry: part.mesh && part.mesh.geometry }];
}

// The three.js objects of one mechanical object.
function buildPart(object, index) {
  const n = object.points;
  // The points as a float RGBA texture (x, y, z, unused): width a power of two, rows enough.
  const width = Math.min(4096, 1 << Math.ceil(Math.log2(Math.max(1, Math.ceil(Math.sqrt(n))))));
  const height = Math.max(1, Math.ceil(n / width));
  const texels = new Float32Array(4 * width * height);
  // The points' vertex buffer is the texture's first n texels (4 floats per point: a vec3
  // attribute reads the first three).
  const positions = texels.subarray(0, 4 * n);
  const part = { object, index, positions, texels, mesh: null, lines: null, held: null, texture: null };
  part.positionAttribute = new THREE.BufferAttribute(positions, 4);
  const pointGeometry = new THREE.BufferGeometry();
  pointGeometry.setAttribute('position', part.positionAttribute);
  const drawnAsPoints = object.triangles.length === 0 && object.segments.length === 0;
  part.points = new THREE.Points(
    pointGeometry,
    new THREE.PointsMaterial({ color: 0x333333, size: drawnAsPoints ? 6 : 2, sizeAttenuation: false }));
  part.points.visible = drawnAsPoints || n <= kMostDottedPoints;
  part.points.userData.fluxionObject = object.id;
  three.scene.add(part.points);

  if (object.triangles.length > 0) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', part.positionAttribute);
    geometry.setIndex(new THREE.BufferAttribute(new Uint32Array(object.triangles), 1));
    // Flat shading: the normals come from the fragment shader's derivatives, none computed here;
    // one light from the camera, both sides lit alike. A shader of its own rather than three's
    // MeshPhongMaterial: the triangles cover much of the canvas, and without a GPU (SwiftShader)
    // Phong's fragment shader was the largest cost of a level-of-detail frame (docs/viewer.md).
    const material = new THREE.ShaderMaterial({
      vertexShader: kMeshVertexShader, fragmentShader: kMeshFragmentShader,
      side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
    material.extensions.derivatives = true;
    part.mesh = new THREE.Mesh(geometry, material);
    three.scene.add(part.mesh);
  }
  if (object.segments.length > 0 && gpuStrain) {
    const geometry = segmentGeometry(object.segments, object.rest);
    part.texture = new THREE.DataTexture(texels, width, height, THREE.RGBAFormat, THREE.FloatType);
    part.texture.minFilter = part.texture.magFilter = THREE.NearestFilter;
    part.texture.generateMipmaps = false;
    part.texture.flipY = false;
    part.lineMaterial = new THREE.ShaderMaterial({
      uniforms: {
        points: { value: part.texture },
        pointsSize: { value: new THREE.Vector2(width, height) },
        strainScale: { value: strainScale },
      },
      vertexShader: kSegmentVertexShader,
      fragmentShader: kSegmentFragmentShader,
    });
    part.lines = new THREE.LineSegments(geometry, part.lineMaterial);
    three.scene.add(part.lines);
  } else if (object.segments.length > 0) {
    // No float textures in the vertex shader (an old GPU): positions and colours per frame here.
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

// Positions of one object from a frame block (float64 or float32, `dimension` per point) into the
// points' buffer (4 floats per point), which is also the segments' texture.
function updatePart(part, values) {
  const { object, positions } = part;
  const d = object.dimension, n = object.points;
  if (d === 3) {
    for (let i = 0; i < n; ++i) {
      positions[4 * i] = values[3 * i];
      positions[4 * i + 1] = values[3 * i + 1];
      positions[4 * i + 2] = values[3 * i + 2];
    }
  } else {
    for (let i = 0; i < n; ++i) {
      positions[4 * i] = values[d * i];
      positions[4 * i + 1] = d > 1 ? values[d * i + 1] : 0;
      positions[4 * i + 2] = d > 2 ? values[d * i + 2] : 0;
    }
  }
  part.positionAttribute.needsUpdate = true;
  if (part.texture) {
    part.texture.needsUpdate = true;
    part.lineMaterial.uniforms.strainScale.value = strainScale;
  } else if (part.lines) {
    const seg = object.segments, rest = object.rest, lp = part.linePositions, lc = part.lineColours;
    for (let k = 0, count = rest.length; k < count; ++k) {
      const a = 4 * seg[2 * k], b = 4 * seg[2 * k + 1];
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
      part.heldPositions[3 * k] = positions[4 * i];
      part.heldPositions[3 * k + 1] = positions[4 * i + 1];
      part.heldPositions[3 * k + 2] = positions[4 * i + 2];
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
  if (buffer.byteLength < 40) return false;
  const magic = view.getUint32(0, true);
  const exact = magic === 0x31565846;  // "FXV1": float64 positions
  if (!exact && magic !== 0x31465846) return false;  // "FXF1": float32 positions
  const scalar = exact ? 8 : 4;
  const blocks = view.getUint32(4, true);
  const step = Number(view.getBigInt64(8, true));
  const time = view.getFloat64(16, true);
  const kinetic = view.getFloat64(24, true), potential = view.getFloat64(32, true);
  let at = 40, contactValues = null;
  for (let b = 0; b < blocks; ++b) {
    const index = view.getUint32(at, true), count = view.getUint32(at + 4, true);
    const values = exact ? new Float64Array(buffer, at + 8, count) : new Float32Array(buffer, at + 8, count);
    if (index === 0xffffffff) contactValues = values;
    else if (index < parts.length) updatePart(parts[index], values);
    at += 8 + scalar * count;
  }
  if (contactValues || contacts) updateContacts(contactValues);
  if (fluxionView.keepFrames && exact) fluxionView.frames.push({ step, base64: toBase64(buffer) });
  if (fluxionView.framesDrawn === 0) {
    parts.forEach(keepReference);
    fitCamera();
    levelsStale = true;
  }
  if (step < fluxionView.step) energies.length = 0;
  if (step !== fluxionView.step) fluxionView.newStates += 1;
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
  // One canvas pixel per CSS pixel (a high-density screen's 2 or 3 would draw 4 or 9 times the
  // pixels), no sorting of the few objects (each is one draw call), no shadows.
  renderer.setPixelRatio(1);
  renderer.sortObjects = false;
  renderer.shadowMap.enabled = false;
  gpuStrain = renderer.capabilities.floatVertexTextures;
  renderer.setClearColor(0xffffff);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const light = new THREE.DirectionalLight(0xffffff, 0.6);
  camera.add(light);
  scene.add(camera);
  const controls = new THREE.OrbitControls(camera, canvas);
  controls.screenSpacePanning = true;
  controls.addEventListener('change', () => (needsRender = levelsStale = true));
  three = { renderer, scene, camera, controls };
  const resize = () => {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
    needsRender = levelsStale = true;
  };
  window.addEventListener('resize', resize);
  resize();
}

// Asks for the next frame: exact (float64) while the frames are kept, else float32.
let requestedAt = 0, arrivedAt = 0;
function requestFrame() {
  requestedAt = performance.now();
  send(fluxionView.keepFrames ? { cmd: 'frame', exact: true } : { cmd: 'frame' });
}

// Sums over the current second of each timing (see fluxionView.timings).
const timingSums = { waitMs: 0, queueMs: 0, updateMs: 0, renderMs: 0, frameMs: 0 };
let lastFrameAt = 0;

// Frames drawn and steps taken per second, over the last second.
let rateStart = performance.now(), rateFrames = 0, rateStep = 0;
function loop(now) {
  fluxionView.ticks += 1;
  const drewFrame = pending !== null;
  if (pending) {
    const frame = pending;
    pending = null;
    const start = performance.now();
    timingSums.waitMs += arrivedAt - requestedAt;
    timingSums.queueMs += start - arrivedAt;
    if (drawFrame(frame)) needsRender = true;
    fluxionView.updateMs = performance.now() - start;
    timingSums.updateMs += fluxionView.updateMs;
    if (lastFrameAt) timingSums.frameMs += start - lastFrameAt;
    lastFrameAt = start;
    rateFrames += 1;
    requestFrame();  // ready for the next: the server encodes it while this one is drawn
  }
  if (levelsStale) {
    levelsStale = false;
    applyLevels();
  }
  if (needsRender) {
    const start = performance.now();
    three.renderer.render(three.scene, three.camera);
    three.renderer.getContext().finish();  // the time drawing takes, not only queueing it
    fluxionView.renderMs = performance.now() - start;
    if (drewFrame) timingSums.renderMs += fluxionView.renderMs;
    needsRender = false;
  }
  if (now - rateStart >= 1000) {
    const seconds = (now - rateStart) / 1000;
    if (rateFrames) {
      const timings = {};
      for (const key of Object.keys(timingSums)) {
        timings[key] = timingSums[key] / rateFrames;
        timingSums[key] = 0;
      }
      fluxionView.timings = timings;
    }
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
    requestFrame();
  };
  socket.onmessage = (message) => {
    if (typeof message.data !== 'string') {
      pending = message.data;  // the server sends the next only when asked: none is lost
      arrivedAt = performance.now();
      return;
    }
    const event = JSON.parse(message.data);
    if (event.type === 'status') onStatus(event);
    else if (event.type === 'timing') Object.assign(fluxionView.server, event);
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
    for (const part of parts) if (part.lineMaterial) part.lineMaterial.uniforms.strainScale.value = strainScale;
    needsRender = true;
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
