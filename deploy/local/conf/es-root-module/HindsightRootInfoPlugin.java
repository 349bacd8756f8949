// The root endpoint (GET / and HEAD /) for the local Elasticsearch.
//
// Elastic's integ-test-zip distribution (what Maven Central has of Elasticsearch 8) leaves
// out the `rest-root` module, so `GET /` answers 405 there. elasticsearch-py's ping() and
// info(), and libraries that read the server version through info(), need it. This module
// answers with the same fields, taken from the running node (its settings, the cluster state
// and the server's own build information). Compiled against the distribution's jars and
// installed as a module by deploy/local/servers/elasticsearch.sh.

package hindsight.local.elasticsearch;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.ClusterName;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

public class HindsightRootInfoPlugin extends Plugin implements ActionPlugin {

    private volatile ClusterService clusterService;

    @Override
    public Collection<?> createComponents(PluginServices services) {
        clusterService = services.clusterService();
        return List.of();
    }

    @Override
    public Collection<RestHandler> getRestHandlers(
        Settings settings,
        NamedWriteableRegistry namedWriteableRegistry,
        RestController restController,
        ClusterSettings clusterSettings,
        IndexScopedSettings indexScopedSettings,
        SettingsFilter settingsFilter,
        IndexNameExpressionResolver indexNameExpressionResolver,
        Supplier<DiscoveryNodes> nodesInCluster,
        Predicate<NodeFeature> clusterSupportsFeature
    ) {
        return List.of(new RootInfoHandler(settings));
    }

    private final class RootInfoHandler extends BaseRestHandler {
        private final String nodeName;
        private final String clusterName;

        RootInfoHandler(Settings settings) {
            this.nodeName = Node.NODE_NAME_SETTING.get(settings);
            this.clusterName = ClusterName.CLUSTER_NAME_SETTING.get(settings).value();
        }

        @Override
        public String getName() {
            return "hindsight_root_info_action";
        }

        @Override
        public List<Route> routes() {
            return List.of(new Route(RestRequest.Method.GET, "/"), new Route(RestRequest.Method.HEAD, "/"));
        }

        @Override
        protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
            return channel -> {
                Build build = Build.current();
                String clusterUuid = clusterService.state().metadata().clusterUUID();
                XContentBuilder body = channel.newBuilder();
                body.startObject();
                body.field("name", nodeName);
                body.field("cluster_name", clusterName);
                body.field("cluster_uuid", clusterUuid);
                body.startObject("version")
                    .field("number", build.qualifiedVersion())
                    .field("build_flavor", build.flavor())
                    .field("build_type", build.type().displayName())
                    .field("build_hash", build.hash())
                    .field("build_date", build.date())
                    .field("build_snapshot", build.isSnapshot())
                    .field("lucene_version", org.apache.lucene.util.Version.LATEST.toString())
                    .field("minimum_wire_compatibility_version", build.minWireCompatVersion())
                    .field("minimum_index_compatibility_version", build.minIndexCompatVersion())
                    .endObject();
                body.field("tagline", "You Know, for Search");
                body.endObject();
                channel.sendResponse(new RestResponse(RestStatus.OK, body));
            };
        }
    }
}
