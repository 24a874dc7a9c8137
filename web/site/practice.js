// Practice for arbiters (docs/arbiter.md): each exercise sets a game up on the clock,
// tells the claim and the decision, lists the keys, and checks what the clock then
// shows against its own state line (web/exercises.py).
export class Practice {
  constructor(section, live, exercises) {
    this.live = live;
    this.exercises = exercises;
    const heading = document.createElement("h2");
    heading.textContent = "Practice for arbiters";
    section.appendChild(heading);
    for (const exercise of JSON.parse(exercises.listing())) section.appendChild(this.card(exercise));
  }

  card(exercise) {
    const card = document.createElement("details");
    card.className = "exercise";
    card.id = `exercise-${exercise.name}`;
    const summary = document.createElement("summary");
    summary.textContent = exercise.title;
    card.appendChild(summary);
    const paragraph = (text) => {
      const p = document.createElement("p");
      p.textContent = text;
      card.appendChild(p);
    };
    paragraph(exercise.situation);
    const setUp = document.createElement("button");
    setUp.textContent = "set this game up";
    setUp.className = "set-up";
    card.appendChild(setUp);
    paragraph(`Your decision: ${exercise.decision}`);
    const steps = document.createElement("ol");
    for (const key of exercise.keys) {
      const item = document.createElement("li");
      item.textContent = key;
      steps.appendChild(item);
    }
    card.appendChild(steps);
    paragraph(`The clock must then show: ${exercise.shows} (${exercise.expect}).`);
    const check = document.createElement("button");
    check.textContent = "check the clock";
    check.className = "check";
    card.appendChild(check);
    const verdict = document.createElement("p");
    verdict.className = "verdict";
    verdict.setAttribute("role", "status");
    card.appendChild(verdict);
    setUp.addEventListener("click", () => {
      this.live.start(null, null, exercise.setup);
      verdict.textContent = "Set up: the clock is paused where you are called.";
      verdict.className = "verdict";
      document.getElementById("clock").scrollIntoView({ behavior: "smooth", block: "start" });
    });
    check.addEventListener("click", () => {
      const failed = this.exercises.check(this.live.clock, exercise.name);
      verdict.className = failed ? "verdict no" : "verdict ok";
      verdict.textContent = failed
        ? `Not yet: ${failed.replaceAll("\n", "; ")}. The clock shows: ${this.live.clock.state_line()}`
        : "Right: the clock shows what the rules ask.";
    });
    return card;
  }
}
