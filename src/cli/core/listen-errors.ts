// Why a server kct starts (`kct sandbox`, `kct callbacks listen`) could not listen, in words a person
// can act on: a port taken, an address this machine does not have or cannot resolve, a port below
// 1024. Anything else is returned as it is.
import { UsageError } from '../../api/errors.js';

export function listenProblem(error: unknown, host: string, port: number): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE')
    return new UsageError(`port ${port} on ${host} is already in use`, {
      suggestion: 'Stop what uses it, or pick another with --port (--port 0 takes any free port).',
    });
  if (code === 'EADDRNOTAVAIL')
    return new UsageError(`cannot listen on ${host}: no such address on this machine`, {
      suggestion: 'Use --host 127.0.0.1, or an address of this machine.',
    });
  // a name (or a number no address can be, 999.1.1.1) that does not resolve
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return new UsageError(`cannot listen on ${host}: no address of that name`, {
      suggestion: 'Use --host 127.0.0.1, or an address of this machine.',
    });
  if (code === 'EACCES' && syscall === 'listen')
    return new UsageError(`not allowed to listen on port ${port}`, { suggestion: 'Use a port above 1023, or --port 0.' });
  return error;
}
