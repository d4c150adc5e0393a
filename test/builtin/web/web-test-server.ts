/** A loopback HTTP server for the web tool tests: routes are plain handlers, the port is chosen by the OS. */
import http from 'node:http';
import type {AddressInfo} from 'node:net';

export type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export type TestServer = {readonly origin: string; close(): Promise<void>};

/** Start a server on 127.0.0.1 with `routes` keyed by path (query string ignored); other paths answer 404 text. */
export async function startTestServer(routes: Record<string, Route>): Promise<TestServer> {
	const server = http.createServer((request, response) => {
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		const route = routes[path];
		if (route === undefined) {
			response.writeHead(404, {'content-type': 'text/plain'});
			response.end(`no route ${path}`);
			return;
		}

		route(request, response);
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	const {port} = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		async close() {
			server.closeAllConnections();
			await new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
			});
		},
	};
}
