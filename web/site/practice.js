// Practice for arbiters (docs/arbiter.md): filled in by the exercises.
export class Practice {
  constructor(section, live) {
    this.section = section;
    this.live = live;
  }
}
