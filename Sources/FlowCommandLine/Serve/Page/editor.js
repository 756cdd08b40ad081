// flow serve's editing gestures, after page.js (whose window.flowPost and window.flowSay it uses):
// the palette adds a node (asking for the kind's required params); a drag from an output's circle
// to an input's circle connects them; a drag on a node's title bar moves it; a click selects a
// node or an edge and Delete (or Backspace) removes it. Each gesture is one request (/add,
// /connect, /move, /delete), so one store mutation and one undo step; a refused connection (a
// cycle, a type mismatch) is shown with the store's message at the input's handle (an element
// with data-message) and changes nothing. Pointer events only (no HTML5 drag and drop), so real
// input and WebDriver actions drive the same code.
(() => {
  "use strict";
  const graph = document.getElementById("graph");
  let selected = null;  // { node: id } or { edge: id }
  let drag = null;
  let move = null;
  const headerHeight = 40;  // the title and kind lines of a box (GraphPicture.headerHeight)

  function answered(result, done) {
    if (!result.ok || result.data.ok === false) {
      window.flowSay(result.data.error || ("HTTP " + result.status), true);
      return false;
    }
    window.flowSay(done, false);
    return true;
  }
  function select(element) {
    document.querySelectorAll(".node.selected, .edge.selected").forEach((other) => other.classList.remove("selected"));
    selected = !element ? null : (element.dataset.edge !== undefined ? { edge: element.dataset.edge } : { node: element.dataset.node });
    if (element) { element.classList.add("selected"); }
  }
  // A refusal's message at the handle it concerns (removed by the next gesture).
  function refuse(message, handle) {
    unrefuse();
    const box = handle.getBoundingClientRect();
    const note = document.createElement("div");
    note.className = "refusal";
    note.setAttribute("data-message", message);
    note.setAttribute("role", "alert");
    note.textContent = message;
    note.style.left = (box.left + window.scrollX) + "px";
    note.style.top = (box.bottom + window.scrollY + 4) + "px";
    document.body.appendChild(note);
  }
  function unrefuse() { document.querySelectorAll(".refusal[data-message]").forEach((note) => note.remove()); }

  const palette = document.querySelector('select[data-action="add"]');
  palette.addEventListener("change", async () => {
    const option = palette.selectedOptions[0];
    const kind = palette.value;
    palette.value = "";
    if (!kind) { return; }
    // A kind's required params are asked for (lists and records as JSON).
    const params = {};
    for (const entry of (option.dataset.required || "").split(" ").filter((text) => text)) {
      const [name, type] = entry.split(":");
      const value = window.prompt(kind + ": " + name + " (" + type + ")");
      if (value === null) { return; }
      params[name] = value;
    }
    const result = await window.flowPost("/add", { kind, params });
    answered(result, "added " + (result.data.id || kind));
  });

  graph.addEventListener("pointerdown", (event) => {
    unrefuse();
    const output = event.target.closest('[data-direction="out"]');
    if (output) {
      drag = { node: output.closest("[data-node]").dataset.node, port: output.dataset.out };
      graph.classList.add("connecting");
      event.preventDefault();
      return;
    }
    if (event.target.closest("input, textarea") || event.target.closest('[data-direction="in"]')) { return; }
    const edge = event.target.closest("[data-edge]");
    if (edge) { select(edge); return; }
    const node = event.target.closest("[data-node]");
    // A click in the picture leaves any field or the palette (a field commits on blur), as
    // the default action would have, which a move's preventDefault stops.
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) { document.activeElement.blur(); }
    select(node);
    // The title bar (the box's header) starts a move.
    const body = node && node.querySelector("rect.body");
    const svg = graph.querySelector("svg");
    if (!body || !svg || !svg.getScreenCTM()) { return; }
    const scale = svg.getScreenCTM().a || 1;
    const top = body.getBoundingClientRect().top;
    if (event.clientY - top > headerHeight * scale) { return; }
    move = { node, id: node.dataset.node, x: Number(body.getAttribute("x")), y: Number(body.getAttribute("y")),
             startX: event.clientX, startY: event.clientY, scale, dx: 0, dy: 0, moved: false };
    event.preventDefault();
  });
  document.addEventListener("pointermove", (event) => {
    if (!move) { return; }
    move.dx = (event.clientX - move.startX) / move.scale;
    move.dy = (event.clientY - move.startY) / move.scale;
    if (Math.abs(move.dx) + Math.abs(move.dy) > 3) { move.moved = true; }
    if (move.moved) { move.node.setAttribute("transform", "translate(" + move.dx + " " + move.dy + ")"); }
  });
  document.addEventListener("pointerup", async (event) => {
    if (move) {
      const gesture = move;
      move = null;
      if (!gesture.moved) { return; }
      // One request per drag: the box's new top-left corner, in the picture's coordinates.
      const x = Math.max(0, Math.round(gesture.x + gesture.dx)), y = Math.max(0, Math.round(gesture.y + gesture.dy));
      const result = await window.flowPost("/move", { node: gesture.id, x, y });
      if (!answered(result, "moved " + gesture.id)) { gesture.node.removeAttribute("transform"); }
      return;
    }
    if (!drag) { return; }
    const from = drag;
    drag = null;
    graph.classList.remove("connecting");
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const input = under && under.closest('[data-direction="in"]');
    if (!input) { return; }
    const target = input.closest("[data-node]").dataset.node;
    window.flowGestureStarted(performance.now());
    const result = await window.flowPost("/connect", { source: from.node, sourcePort: from.port, target, targetPort: input.dataset.in });
    if (!answered(result, "connected " + from.node + "." + from.port + " \u2192 " + target + "." + input.dataset.in)) {
      window.flowGestureStarted(null);
      refuse(result.data.error || ("HTTP " + result.status), input);
    }
  });
  document.addEventListener("keydown", async (event) => {
    if (!selected || (event.key !== "Delete" && event.key !== "Backspace")) { return; }
    if (window.flowIsField(event.target) || event.target instanceof HTMLSelectElement) { return; }
    event.preventDefault();
    const target = selected;
    select(null);
    answered(await window.flowPost("/delete", target), "deleted " + (target.node !== undefined ? target.node : "edge " + target.edge));
  });
})();
