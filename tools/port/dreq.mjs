// The PIO's RX DREQ as the DMA sees it, one of two ways, since nothing the lane can run settles
// which the silicon does for a channel that never reads the FIFO:
//   'level'  : the request stands while the RX FIFO is not empty (rp2040js's own model);
//   'credit' : each push into the RX FIFO gives the DMA one transfer, whoever drains the FIFO.

/** The bookkeeping of 'credit': pushes less transfers, per DREQ number. */
export class DreqCredits {
  constructor() {
    this.credits = new Map();
  }
  push(dreq) {
    this.credits.set(dreq, (this.credits.get(dreq) || 0) + 1);
  }
  /** One transfer taken; returns whether the request still stands. */
  take(dreq) {
    const left = Math.max(0, (this.credits.get(dreq) || 0) - 1);
    this.credits.set(dreq, left);
    return left > 0;
  }
  standing(dreq) {
    return (this.credits.get(dreq) || 0) > 0;
  }
}

/** Puts the DMA of an rp2040js RP2040 on the given semantics for every PIO RX DREQ. */
export function setRxDreq(mcu, mode) {
  if (mode === 'level') return null;
  if (mode !== 'credit') throw new Error(`DREQ semantics '${mode}': 'level' or 'credit'`);
  const credits = new DreqCredits();
  const rxDreqs = new Set();
  for (const pio of mcu.pio) {
    for (const machine of pio.machines) {
      const dreq = machine.dreqRx;
      rxDreqs.add(dreq);
      const fifo = machine.rxFIFO;
      const push = fifo.push.bind(fifo);
      fifo.push = (value) => {
        push(value);
        credits.push(dreq);
      };
      machine.updateDMARx = () => {
        if (credits.standing(dreq)) mcu.dma.setDREQ(dreq);
        else mcu.dma.clearDREQ(dreq);
      };
    }
  }
  for (const channel of mcu.dma.channels) {
    afterTransfer(channel, () => {
      if (rxDreqs.has(channel.treq) && !credits.take(channel.treq)) {
        mcu.dma.clearDREQ(channel.treq);
      }
    });
  }
  return credits;
}

/** Calls `callback` after each transfer of an rp2040js DMA channel. The channel picks its
 *  transfer function again at each write of its CTRL (the data size), so the hook sits on
 *  that property and wraps whichever function it is given; a channel's hooks all run. */
const hooks = new WeakMap();
export function afterTransfer(channel, callback) {
  if (hooks.has(channel)) {
    hooks.get(channel).push(callback);
    return;
  }
  const callbacks = [callback];
  hooks.set(channel, callbacks);
  const wrap = (fn) => (...args) => {
    const result = fn.apply(channel, args);
    for (const after of callbacks) after();
    return result;
  };
  let wrapped = wrap(channel.transferFn);
  Object.defineProperty(channel, 'transferFn', {
    configurable: true,
    get: () => wrapped,
    set: (fn) => {
      wrapped = wrap(fn);
    },
  });
}
