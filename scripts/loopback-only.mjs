// Preload (`node --import ./scripts/loopback-only.mjs server.js`): a server that calls listen(port)
// without a host binds 127.0.0.1 instead of every interface. Third-party servers such as
// server-everything listen on all interfaces; with this they are reachable from this machine only.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  const portOnly = typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first));
  if (portOnly && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  else if (first && typeof first === 'object' && !('path' in first) && !first.host) args[0] = { ...first, host: '127.0.0.1' };
  return listen.apply(this, args);
};
