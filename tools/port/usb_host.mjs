// The USB host's side of the CDC console. rp2040js's host answers each OUT transfer the
// device arms at once, with an empty packet when it has nothing to send: the device re-arms,
// and its USB interrupt fires tens of thousands of times a second, which no host does (a real
// one NAKs until it has data), and which would wake the core as the firmware never is.
// Here the host keeps an armed OUT transfer until it has bytes for it.

/** Puts `cdc` (rp2040js's USBCDC, or anything with its usb, txFIFO and outEndpoint) on that
 *  rule; returns the function that sends what was typed into an armed transfer. */
export function holdOutTransfers(cdc) {
  const { usb } = cdc;
  let armed = null;
  const send = () => {
    if (armed === null || cdc.txFIFO.empty) return;
    const [endpoint, size] = armed;
    armed = null;
    const buffer = new Uint8Array(Math.min(size, cdc.txFIFO.itemCount));
    for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
    usb.endpointReadDone(endpoint, buffer);
  };
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    armed = [endpoint, size];
    send();
  };
  return send;
}
