// flow serve's editing gestures, after page.js (whose window.flowPost and window.flowSay it uses):
// the palette adds a node (asking for the kind's required params in a dialog); a drag from an output's circle
// to an input's circle connects them; a drag on a node's title bar moves it; a click selects a
// node or an edge and Delete (or Backspace) removes it; a double click on a subgraph instance
// opens its inside (read-only). Each gesture is one request (/add,
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

  // A kind's required params, asked for in one dialog before the node is added: a text, a
  // formula, a list or a record (lists and records as JSON) in a multi-line field like the
  // node's own (Enter is a new line, Ctrl/Cmd+Enter adds), any other in a one-line field (Enter
  // adds); Escape or Cancel adds nothing. Resolves to {name: text}, or null when cancelled.
  function ask(kind, entries) {
    return new Promise((resolve) => {
      const form = document.createElement("form");
      form.className = "prompt";
      form.setAttribute("role", "dialog");
      form.dataset.kind = kind;
      const heading = document.createElement("strong");
      heading.textContent = "add " + kind;
      form.appendChild(heading);
      const fields = entries.map(([name, type]) => {
        const label = document.createElement("label");
        label.textContent = name + " (" + type + ")";
        const multiLine = type === "string" || type === "list" || type === "record";
        const field = document.createElement(multiLine ? "textarea" : "input");
        field.dataset.prompt = name;
        field.spellcheck = false;
        if (multiLine) { field.rows = 4; } else { field.type = "text"; }
        label.appendChild(field);
        form.appendChild(label);
        return field;
      });
      const buttons = document.createElement("div");
      buttons.innerHTML = '<button type="submit">Add</button> <button type="button" data-cancel>Cancel</button>';
      form.appendChild(buttons);
      const finish = (values) => { form.remove(); resolve(values); };
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const values = {};
        fields.forEach((field) => { values[field.dataset.prompt] = field.value; });
        finish(values);
      });
      buttons.querySelector("[data-cancel]").addEventListener("click", () => finish(null));
      form.addEventListener("keydown", (event) => {
        event.stopPropagation();  // the page's keys (Delete, undo) are not for the dialog
        if (event.key === "Escape") { event.preventDefault(); finish(null); }
        else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); form.requestSubmit(); }
      });
      document.body.appendChild(form);
      fields[0].focus();
    });
  }

  const palette = document.querySelector('select[data-action="add"]');
  palette.addEventListener("change", async () => {
    const option = palette.selectedOptions[0];
    const kind = palette.value;
    palette.value = "";
    if (!kind) { return; }
    const entries = (option.dataset.required || "").split(" ").filter((text) => text).map((entry) => entry.split(":"));
    const params = entries.length === 0 ? {} : await ask(kind, entries);
    if (params === null) { return; }
    const result = await window.flowPost("/add", { kind, params });
    answered(result, "added " + (result.data.id || kind));
  });

  // The handle (`direction` "in" or "out") at a point of the picture, also under a text drawn
  // over it (a value that arrived before the picture was laid out again for it).
  function handleAt(x, y, direction) {
    const selector = '[data-direction="' + direction + '"]';
    for (const element of document.elementsFromPoint(x, y)) {
      const handle = element.closest(selector);
      if (handle && graph.contains(handle)) { return handle; }
      if (element === graph) { break; }
    }
    return null;
  }

  graph.addEventListener("pointerdown", (event) => {
    unrefuse();
    const output = event.target.closest("input, textarea") ? null : handleAt(event.clientX, event.clientY, "out");
    if (output) {
      drag = { node: output.closest("[data-node]").dataset.node, port: output.dataset.out };
      graph.classList.add("connecting");
      window.flowGestureHeld();
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
    window.flowGestureHeld();
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
      if (!gesture.moved) { window.flowGestureReleased(); return; }
      // One request per drag: the box's new top-left corner, in the picture's coordinates.
      const x = Math.max(0, Math.round(gesture.x + gesture.dx)), y = Math.max(0, Math.round(gesture.y + gesture.dy));
      window.flowGestureReleased();
      const result = await window.flowPost("/move", { node: gesture.id, x, y });
      if (!answered(result, "moved " + gesture.id)) { gesture.node.removeAttribute("transform"); }
      return;
    }
    if (!drag) { return; }
    const from = drag;
    drag = null;
    graph.classList.remove("connecting");
    // The input under the pointer in the picture the drag began on (held until now).
    const input = handleAt(event.clientX, event.clientY, "in");
    const target = input && input.closest("[data-node]").dataset.node;
    window.flowGestureReleased();
    if (!input) { return; }
    window.flowGestureStarted(performance.now());
    const result = await window.flowPost("/connect", { source: from.node, sourcePort: from.port, target, targetPort: input.dataset.in });
    if (!answered(result, "connected " + from.node + "." + from.port + " \u2192 " + target + "." + input.dataset.in)) {
      window.flowGestureStarted(null);
      refuse(result.data.error || ("HTTP " + result.status), input);
    }
  });
  // A gesture the browser took away (a lost pointer) ends without a change.
  document.addEventListener("pointercancel", () => {
    if (move) { move.node.removeAttribute("transform"); }
    move = null;
    drag = null;
    graph.classList.remove("connecting");
    window.flowGestureReleased();
  });
  // A subgraph instance's inside (GET /inside.svg?node=PATH), opened by a double click on the
  // instance, read-only, in an overlay over the picture; drawn again after each pass while open;
  // a nested instance opens in its place; Close or Escape closes it.
  let inside = null;  // { element, path, kind, loading }
  async function openInside(path, kind) {
    const response = await fetch("/inside.svg?node=" + encodeURIComponent(path), { cache: "no-store" });
    if (!response.ok) {
      let data = {};
      try { data = await response.json(); } catch (error) { data = {}; }
      window.flowSay(data.error || ("HTTP " + response.status), true);
      closeInside();
      return;
    }
    const text = await response.text();
    if (inside === null) {
      const element = document.createElement("div");
      element.className = "inside";
      element.setAttribute("role", "dialog");
      element.innerHTML = '<div class="inside-bar"><strong></strong> <span>inside, read-only</span>'
        + '<button type="button" data-action="close-inside">Close</button></div><div class="inside-graph"></div>';
      element.querySelector("button").addEventListener("click", closeInside);
      element.addEventListener("dblclick", (event) => {
        const node = event.target.closest(".node.instance");
        if (node) { openInside(node.dataset.node, node.dataset.subgraph); }
      });
      document.body.appendChild(element);
      inside = { element, path, kind, loading: false };
    }
    inside.path = path;
    inside.kind = kind;
    inside.element.dataset.inside = path;
    inside.element.querySelector("strong").textContent = path + " \u00b7 " + kind;
    inside.element.querySelector(".inside-graph").innerHTML = text;
  }
  function closeInside() {
    if (inside !== null) { inside.element.remove(); inside = null; }
  }
  window.flowInsideChanged = async () => {
    if (inside === null || inside.loading) { return; }
    inside.loading = true;
    const open = inside;
    try { await openInside(open.path, open.kind); } finally { open.loading = false; }
  };
  graph.addEventListener("dblclick", (event) => {
    const node = event.target.closest(".node.instance");
    if (node) { openInside(node.dataset.node, node.dataset.subgraph); }
  });

  document.addEventListener("keydown", async (event) => {
    if (event.key === "Escape" && inside !== null && !window.flowIsField(event.target)) { closeInside(); return; }
    if (!selected || (event.key !== "Delete" && event.key !== "Backspace")) { return; }
    if (window.flowIsField(event.target) || event.target instanceof HTMLSelectElement) { return; }
    event.preventDefault();
    const target = selected;
    select(null);
    answered(await window.flowPost("/delete", target), "deleted " + (target.node !== undefined ? target.node : "edge " + target.edge));
  });
})();
