// Package panel is the simulated Mark I's operator panel in a web browser:
// an http.Handler, served by the mark1 binary itself, that shows the
// retina, the A-units, the R-unit lamps and the potentiometer dials, and
// updates them live while the machine trains.
//
// One Server owns one machine, guarded by a mutex; every browser tab sees
// the same machine. Changes are pushed to all tabs as server-sent events
// (GET /api/events, event "state"), each carrying the whole changing state
// as JSON; a slow tab skips to the latest state rather than holding the
// machine back.
//
// The controls are POST requests that answer with the new state:
//
//	/api/task     {"task": "shapes"}   new machine (same hardware) on a built-in task;
//	              {"task": "letters1960", "keep": true}
//	                                   the same machine, its training kept, on the
//	                                   task's cards (same classes only), continued
//	/api/reset                         pots back to their start, history cleared
//	/api/present  {"card": 7} or none  show training card 7, or the deck's next;
//	                                   no learning, whether or not training ended
//	/api/continue                      resume training that has ended (converged or
//	                                   at its epoch limit): the stopping rule is
//	                                   checked afresh, for up to the epoch limit
//	                                   more epochs. Step and Run are refused (409)
//	                                   once training has ended, until Continue
//	/api/step                          one presentation with error correction
//	/api/run, /api/pause               train continuously, or stop
//	/api/speed    {"delay_ms": 20}     pause between presentations while running
//	/api/upload   (the picture's bytes) show your own picture
//	/api/force    {"class": 2}         play the 1960 trainer: force the response
//	                                   of class 2 on the card shown, and the
//	                                   motors turn the pots of the active A-units
//
// GET /api/machine.json downloads the machine as a machine file. GET
// /api/layout describes what does not change while the machine is the
// same (classes, retina size, which pots feed which R-unit, the class code,
// the number of held-out cards P_g is measured on), and GET /api/state
// returns the state once. Pictures of the machine as it stands are drawn
// on request as PNG by the dials package: /api/dials.png (the dial panel),
// /api/weights.png (weight maps), /api/sensitivity.png (what each R-unit
// responds to, over the training cards) and /api/means.png (each class's
// mean card and the mean of those the machine gets wrong, over the
// held-out cards). Uploads are limited in size,
// decoded with the images package's limits by one images.Decoder, so that
// concurrent uploads share one memory budget, and anything that is not a
// picture is refused with a message that says so.
//
// The lab page (lab.html, linked from the machine's page) runs the lecture
// notes' examples with package lab and does not touch the machine:
// GET /api/lab/examples lists the built-in examples, and POST /api/lab
// {"example": "notes-004" | "points": [[x1, x2, ±1], …], "setup": {…},
// "frame": n} answers with frame n of the run (a lab.Frame: points, w and
// its path, dual lines, feasible region, R(w) and decision grids, the
// trace); the page draws it.
//
// Only the operator's own browser is served (guard.go): a request must
// name a loopback host or the served address, and every control must come
// from the panel's own page, carrying the per-server token that the page
// holds (header X-Mark1-Token). Uploads, event streams, pictures drawn
// and lab runs are capped in number, and the machine changes (an uploaded
// machine, a task change, a reset) one at a time, its cards made without
// holding up the state; uploads have a body deadline, every other request
// a read deadline (serve the panel with Server.HTTPServer), and decoding is
// limited to a few pictures at a time. Control bodies are one JSON object
// that gives the fields the control needs.
package panel
