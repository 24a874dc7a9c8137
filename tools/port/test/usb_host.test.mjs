import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdOutTransfers } from '../usb_host.mjs';

function fakeCdc() {
  const bytes = [];
  const done = [];
  const cdc = {
    outEndpoint: 2,
    txFIFO: {
      get empty() {
        return bytes.length === 0;
      },
      get itemCount() {
        return bytes.length;
      },
      pull: () => bytes.shift(),
    },
    usb: { endpointReadDone: (endpoint, buffer) => done.push([endpoint, Array.from(buffer)]) },
  };
  return { cdc, bytes, done };
}

test('an OUT transfer armed with nothing to send stays armed: no empty packet', () => {
  const { cdc, done } = fakeCdc();
  holdOutTransfers(cdc);
  cdc.usb.onEndpointRead(2, 64);
  assert.deepEqual(done, []);
});

test('typed bytes go into the armed transfer, and only once', () => {
  const { cdc, bytes, done } = fakeCdc();
  const send = holdOutTransfers(cdc);
  cdc.usb.onEndpointRead(2, 64);
  bytes.push(0x41, 0x42);
  send();
  send();
  assert.deepEqual(done, [[2, [0x41, 0x42]]]);
});

test('bytes waiting go at once into a transfer armed later, at most its size', () => {
  const { cdc, bytes, done } = fakeCdc();
  holdOutTransfers(cdc);
  bytes.push(1, 2, 3);
  cdc.usb.onEndpointRead(2, 2);
  assert.deepEqual(done, [[2, [1, 2]]]);
  cdc.usb.onEndpointRead(5, 64); // another endpoint: not the console's
  assert.equal(done.length, 1);
});
