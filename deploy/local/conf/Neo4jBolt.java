// Runs a Neo4j 5 community database in this JVM with only the Bolt connector listening.
//
// Launched by deploy/local/servers/neo4j.sh as a single-file program (no javac step):
//   java -cp 'libs/*' Neo4jBolt.java WORK_DIR PORT
// It uses the test harness (org.neo4j.test:neo4j-harness) because that is how Neo4j 5 is
// published on Maven Central as something runnable without the server tarball.
//   - withDisabledServer(): no HTTP/Jetty/Jersey server at all; only Bolt.
//   - Bolt binds 127.0.0.1:PORT only.
//   - The harness turns authentication off (dbms.security.auth_enabled=false); we leave it off
//     on purpose: drivers connect with no auth (or any user/password, which is ignored).
//   - The harness puts each start's store in a fresh random folder under WORK_DIR and deletes
//     it on a clean stop: the graph does NOT survive a restart. Fine for tests.

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

public class Neo4jBolt {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: java -cp 'libs/*' Neo4jBolt.java WORK_DIR PORT");
            System.exit(2);
        }
        Path workDir = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(workDir);

        Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(workDir)
                .withDisabledServer()
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .withConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Neo4j stopping");
            neo4j.close();
            stopped.countDown();
        }, "neo4j-shutdown"));

        boolean auth = neo4j.config().get(GraphDatabaseSettings.auth_enabled);
        // infra.sh waits for this exact line (after the Bolt port is open).
        System.out.println("NEO4J READY bolt://127.0.0.1:" + port + " auth_enabled=" + auth
                + " store=" + neo4j.config().get(GraphDatabaseSettings.neo4j_home));
        System.out.flush();
        stopped.await();
    }
}
