// flow serve's page script: keeps the inline SVG current from /events (values, which nodes ran,
// failures, pending nodes, a new picture when the structure changes) and posts param edits, undo,
// redo and save with the page's token (X-Flow-Token). Served inline under the page's nonce.
(() => {
  "use strict";
  const token = document.querySelector('meta[name="flow-token"]').content;
  let structure = Number(document.body.dataset.structure);
  let revision = Number(document.body.dataset.revision);
  let pendingEdit = null;
  const status = document.getElementById("status");
  const latency = document.getElementById("latency");
  window.flowEventCount = 0;
  window.flowPost = (path, body) => post(path, body);
  window.flowSay = (text, isError) => say(text, isError);
  window.flowRevision = revision;
  // A gesture (editor.js) about to post a change: the next pass's event ends its latency.
  window.flowGestureStarted = (start) => { pendingEdit = start === null ? null : { start, base: revision }; };
  // A pointer gesture (editor.js: a drag to connect, a move) holds a new picture until it ends,
  // so the element under the pointer at its end is in the picture it began on (a picture laid
  // out again mid-drag would move the input away from under the pointer).
  let gestureEnded = null, endGesture = null;
  window.flowGestureHeld = () => {
    if (gestureEnded === null) { gestureEnded = new Promise((resolve) => { endGesture = resolve; }); }
  };
  window.flowGestureReleased = () => {
    if (endGesture === null) { return; }
    const resolve = endGesture;
    gestureEnded = null;
    endGesture = null;
    resolve();
  };
  const afterGesture = () => gestureEnded === null ? Promise.resolve() : gestureEnded;
  // Each node's element by id, built once per picture (a lookup per value, not a query over
  // the whole document: 1,000 nodes are 1,000 lookups, not a million element matches).
  let nodeIndex = null;
  function nodeElement(id) {
    if (nodeIndex === null) {
      nodeIndex = new Map();
      document.querySelectorAll("#graph [data-node]").forEach((node) => { nodeIndex.set(node.dataset.node, node); });
    }
    return nodeIndex.get(id);
  }
  const clip = (text) => text.length <= 40 ? text : text.slice(0, 39) + "\u2026";
  const svgNS = "http://www.w3.org/2000/svg";
  // A value's text, elided past 40 characters with the whole value on hover (an SVG title).
  function showValue(element, text) {
    const shown = clip(text);
    element.textContent = shown;
    if (shown !== text) {
      const title = document.createElementNS(svgNS, "title");
      title.textContent = text;
      element.appendChild(title);
    }
  }
  // A message cut into lines as the server cuts it (GraphPicture.wrap: 60 characters, at
  // spaces where it can be, later lines indented by 2, at most 40 lines).
  function wrap(text) {
    const width = 60, indent = 2, limit = 40;
    let rest = Array.from(text);
    if (rest.length <= width) { return [text]; }
    const lines = [];
    while (rest.length > 0) {
      const room = lines.length === 0 ? width : width - indent;
      const pad = lines.length === 0 ? "" : " ".repeat(indent);
      if (lines.length === limit - 1 && rest.length > room) { lines.push(pad + rest.slice(0, room - 1).join("") + "\u2026"); break; }
      let cut = Math.min(room, rest.length);
      if (cut < rest.length) {
        const space = rest.slice(0, cut).lastIndexOf(" ");
        if (space > 0) { cut = space + 1; }
      }
      lines.push(pad + rest.slice(0, cut).join("").replace(/ +$/, ""));
      rest = rest.slice(cut);
    }
    return lines;
  }
  // A node's failure drawn whole inside its box's foot, one tspan a line (the server lays the
  // picture out again for a new message; until then the lines are drawn where the box ends).
  function showFailure(node, message) {
    const body = node.querySelector("rect.body");
    let failure = node.querySelector(".failure");
    if (!failure && message) {
      // Drawn only for nodes that failed: the element is added when one fails later.
      failure = document.createElementNS(svgNS, "text");
      failure.setAttribute("class", "failure");
      failure.setAttribute("x", String(Number(body.getAttribute("x")) + 10));
      failure.dataset.text = "";
      node.appendChild(failure);
    }
    if (!failure || failure.dataset.text === message) { return; }
    failure.dataset.text = message;
    failure.textContent = "";
    const lines = message ? wrap(message) : [];
    const x = failure.getAttribute("x");
    failure.setAttribute("y", String(Number(body.getAttribute("y")) + Number(body.getAttribute("height")) - 10 - 16 * Math.max(0, lines.length - 1)));
    lines.forEach((line, index) => {
      const span = document.createElementNS(svgNS, "tspan");
      span.setAttribute("x", x);
      span.setAttribute("dy", index === 0 ? "0" : "16");
      span.textContent = line;
      failure.appendChild(span);
    });
  }
  const say = (text, isError) => { status.textContent = text; status.className = isError ? "error" : ""; };

  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "X-Flow-Token": token, "Content-Type": "application/json" },
                                          body: JSON.stringify(body || {}) });
    let data = {};
    try { data = await response.json(); } catch (error) { data = {}; }
    return { ok: response.ok, status: response.status, data };
  }

  const isField = (element) => element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
  window.flowIsField = isField;
  function shown(input) { return input.type === "checkbox" ? String(input.checked) : input.value; }
  function setInput(input, value) {
    if (input.type === "checkbox") { input.checked = value === true || value === "true"; }
    else { input.value = value === undefined || value === null ? "" : (typeof value === "string" ? value : JSON.stringify(value)); }
    input.dataset.committed = shown(input);
  }

  function bindInputs(root) {
    root.querySelectorAll("input[data-param], textarea[data-param]").forEach((input) => {
      input.dataset.committed = shown(input);
      const commit = () => { if (shown(input) !== input.dataset.committed) { edit(input); } };
      // A multi-line text takes Enter as a new line and commits on Ctrl/Cmd+Enter.
      const multiLine = input instanceof HTMLTextAreaElement;
      if (!multiLine) { input.addEventListener("change", commit); }
      input.addEventListener("blur", commit);
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (!multiLine || event.ctrlKey || event.metaKey)) { event.preventDefault(); commit(); }
        else if (event.key === "Escape") { input.value = input.dataset.committed; input.blur(); }
      });
    });
  }

  async function edit(input) {
    document.querySelectorAll(".node.rejected").forEach((other) => {
      other.classList.remove("rejected");
      const message = other.querySelector(".rejection");
      if (message) { message.textContent = ""; message.removeAttribute("data-message"); }
    });
    const node = input.closest("[data-node]");
    let rejection = node.querySelector(".rejection");
    if (!rejection) {
      // A refused edit's reason, under the box (added the first time one is refused).
      const body = node.querySelector("rect.body");
      rejection = document.createElementNS(svgNS, "text");
      rejection.setAttribute("class", "rejection");
      rejection.setAttribute("x", String(Number(body.getAttribute("x")) + 2));
      rejection.setAttribute("y", String(Number(body.getAttribute("y")) + Number(body.getAttribute("height")) + 14));
      node.appendChild(rejection);
    }
    const previous = input.dataset.committed;
    input.dataset.committed = shown(input);
    const value = input.type === "checkbox" ? input.checked : input.value;
    pendingEdit = { start: performance.now(), base: revision };
    let result;
    try { result = await post("/edit", { node: node.dataset.node, param: input.dataset.param, value }); }
    catch (error) { result = { ok: false, status: 0, data: { error: "the server did not answer" } }; }
    if (!result.ok || result.data.ok === false) {
      pendingEdit = null;
      setInput(input, input.type === "checkbox" ? previous === "true" : previous);
      if (rejection) {
        rejection.textContent = result.data.error || ("HTTP " + result.status);
        rejection.setAttribute("data-message", rejection.textContent);
      }
      node.classList.add("rejected");
      node.parentNode.appendChild(node);  // drawn last, so its message is on top
    } else {
      if (rejection) { rejection.textContent = ""; }
      node.classList.remove("rejected");
      if (result.data.revision !== undefined && result.data.revision <= revision) { pendingEdit = null; }
    }
  }

  async function action(name) {
    try {
      const result = await post("/" + name, {});
      if (!result.ok) { say(name + " failed: " + (result.data.error || ("HTTP " + result.status)), true); return; }
      if (name === "save") { say("saved to " + result.data.path, false); }
      else if (!result.data.done) { say("nothing to " + name, false); }
      else { say("", false); }
    } catch (error) { say(name + ": the server did not answer", true); }
  }

  async function refreshPicture() {
    const response = await fetch("/graph.svg", { cache: "no-store" });
    if (!response.ok) { return; }
    const text = await response.text();
    await afterGesture();
    const graph = document.getElementById("graph");
    graph.innerHTML = text;
    nodeIndex = null;
    bindInputs(graph);
  }

  function replaceClass(name, ids) {
    document.querySelectorAll(".node." + name).forEach((node) => node.classList.remove(name));
    for (const id of ids) { const node = nodeElement(id); if (node) { node.classList.add(name); } }
  }

  // The latest of everything the events said, so a picture drawn again shows it all.
  const latest = { values: {}, failed: {}, pending: [], emissions: {}, params: {} };
  function remember(event) {
    for (const [id, ports] of Object.entries(event.values || {})) { latest.values[id] = Object.assign(latest.values[id] || {}, ports); }
    for (const [id, params] of Object.entries(event.params || {})) { latest.params[id] = params; }
    if (event.failed) { latest.failed = event.failed; }
    if (event.pending) { latest.pending = event.pending; }
    if (event.emissions) { latest.emissions = event.emissions; }
  }

  function applyState(event) {
    if (event.revision !== undefined) { revision = Math.max(revision, event.revision); }
    window.flowRevision = revision;
    for (const [id, ports] of Object.entries(event.values || {})) {
      const node = nodeElement(id);
      if (!node) { continue; }
      for (const [port, text] of Object.entries(ports)) {
        const element = node.querySelector('[data-value="' + CSS.escape(port) + '"]');
        if (element) { showValue(element, port + " = " + text); }
      }
    }
    document.querySelectorAll(".node.ran").forEach((node) => node.classList.remove("ran"));
    if (!event.initial) {
      for (const id of event.ran || []) {
        const node = nodeElement(id);
        if (node) { node.getBoundingClientRect(); node.classList.add("ran"); }
      }
    }
    replaceClass("cutoff", event.initial ? [] : (event.cutOff || []));
    replaceClass("pending", event.pending || []);
    replaceClass("not-needed", event.notNeeded || []);
    if (event.failed) { document.querySelectorAll('.node.failed, .node:has(> .failure:not([data-text=""]))').forEach((node) => {
      if (event.failed[node.dataset.node] === undefined) { node.classList.remove("failed"); showFailure(node, ""); }
    }); }
    for (const [id, message] of Object.entries(event.failed || {})) {
      const node = nodeElement(id);
      if (!node) { continue; }
      node.classList.add("failed");
      showFailure(node, "! " + message);
    }
    for (const [id, count] of Object.entries(event.emissions || {})) {
      const element = nodeElement(id) && nodeElement(id).querySelector(".emissions");
      if (element) { element.textContent = count + " emitted"; }
    }
    for (const [id, params] of Object.entries(event.params || {})) {
      const node = nodeElement(id);
      if (!node) { continue; }
      node.querySelectorAll("input[data-param], textarea[data-param]").forEach((input) => {
        if (document.activeElement !== input) { setInput(input, params[input.dataset.param]); }
      });
    }
    if (pendingEdit && !event.initial && event.revision > pendingEdit.base) {
      const milliseconds = performance.now() - pendingEdit.start;
      window.flowLastEditLatency = milliseconds;
      latency.textContent = "edit \u2192 update " + milliseconds.toFixed(1) + " ms";
      pendingEdit = null;
    }
    // A picture laid out again replays the values it already had: not a new event.
    if (!event.replay) {
      window.flowEventCount += 1;
      // An instance's inside open over the picture shows the new values too (editor.js).
      if (window.flowInsideChanged && !event.initial) { window.flowInsideChanged(); }
    }
    // When the page first showed values with its gestures bound (since navigation start).
    if (window.flowFirstEventAt === undefined) { window.flowFirstEventAt = performance.now(); }
  }

  // Events are applied one after another; window.flowBusy() counts those not applied yet (0:
  // the page shows everything it was told).
  let queue = Promise.resolve();
  let busy = 0;
  window.flowBusy = () => busy;
  function enqueue(work) {
    busy += 1;
    queue = queue.then(work).catch((error) => say("the page could not apply an event: " + error, true)).then(() => { busy -= 1; });
  }
  function receive(event) {
    if (event.reloadError !== undefined) { say("reload failed: " + event.reloadError, true); return; }
    if (event.reloaded) { say("reloaded from disk", false); }
    remember(event);
    if (event.structure !== undefined && event.structure > structure) {
      structure = event.structure;
      enqueue(() => refreshPicture().then(() => {
        applyState({ initial: true, replay: true, values: latest.values, failed: latest.failed, pending: latest.pending,
                     emissions: latest.emissions, params: latest.params });
        if (event.ran) { applyState(event); }
      }));
    } else if (event.ran) {
      enqueue(() => applyState(event));
    }
  }

  bindInputs(document);
  document.querySelectorAll("button[data-action]").forEach((button) => {
    button.addEventListener("click", () => action(button.dataset.action));
  });
  document.addEventListener("keydown", (event) => {
    if (isField(event.target)) { return; }
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === "z") { event.preventDefault(); action(event.shiftKey ? "redo" : "undo"); }
    else if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); action("redo"); }
    else if ((event.ctrlKey || event.metaKey) && key === "s") { event.preventDefault(); action("save"); }
  });
  const source = new EventSource("/events");
  source.onmessage = (message) => receive(JSON.parse(message.data));
  source.onopen = () => say("", false);
  source.onerror = () => say("disconnected from flow serve; retrying\u2026", true);
})();
