export namespace app {
	
	export class AppInfo {
	    version: string;
	    dataDir: string;
	    dbPath: string;
	    keyring: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	        this.dbPath = source["dbPath"];
	        this.keyring = source["keyring"];
	    }
	}
	export class AppLimits {
	    minHeight: number;
	    maxHeight: number;
	    maxMessageBytes: number;
	    messagesPerSecond: number;
	    maxOpen: number;
	
	    static createFrom(source: any = {}) {
	        return new AppLimits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.minHeight = source["minHeight"];
	        this.maxHeight = source["maxHeight"];
	        this.maxMessageBytes = source["maxMessageBytes"];
	        this.messagesPerSecond = source["messagesPerSecond"];
	        this.maxOpen = source["maxOpen"];
	    }
	}
	export class AppView {
	    instanceId: string;
	    url: string;
	    origin: string;
	    serverId: string;
	    serverName: string;
	    tool: string;
	    toolTitle: string;
	    resourceUri: string;
	    prefersBorder: boolean;
	    permissions: string[];
	    allowed: string[];
	    connectDomains: string[];
	    resourceDomains: string[];
	    frameDomains: string[];
	    dropped: i18n.Message[];
	    toolInput: any;
	    toolResult: any;
	    limits: AppLimits;
	
	    static createFrom(source: any = {}) {
	        return new AppView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.instanceId = source["instanceId"];
	        this.url = source["url"];
	        this.origin = source["origin"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.tool = source["tool"];
	        this.toolTitle = source["toolTitle"];
	        this.resourceUri = source["resourceUri"];
	        this.prefersBorder = source["prefersBorder"];
	        this.permissions = source["permissions"];
	        this.allowed = source["allowed"];
	        this.connectDomains = source["connectDomains"];
	        this.resourceDomains = source["resourceDomains"];
	        this.frameDomains = source["frameDomains"];
	        this.dropped = this.convertValues(source["dropped"], i18n.Message);
	        this.toolInput = source["toolInput"];
	        this.toolResult = source["toolResult"];
	        this.limits = this.convertValues(source["limits"], AppLimits);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ArgumentCheck {
	    arguments: Record<string, any>;
	    errors: Record<string, i18n.Message>;
	
	    static createFrom(source: any = {}) {
	        return new ArgumentCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.arguments = source["arguments"];
	        this.errors = this.convertValues(source["errors"], i18n.Message, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CheckedLink {
	    id: string;
	    link?: linkcheck.Report;
	
	    static createFrom(source: any = {}) {
	        return new CheckedLink(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.link = this.convertValues(source["link"], linkcheck.Report);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CompiledIn {
	    kind: string;
	    name: string;
	    version: string;
	    licence: string;
	
	    static createFrom(source: any = {}) {
	        return new CompiledIn(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.name = source["name"];
	        this.version = source["version"];
	        this.licence = source["licence"];
	    }
	}
	export class CompletionView {
	    values: string[];
	    hasMore: boolean;
	    total: number;
	    offered: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CompletionView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.values = source["values"];
	        this.hasMore = source["hasMore"];
	        this.total = source["total"];
	        this.offered = source["offered"];
	    }
	}
	export class ConnectRequest {
	    app: string;
	    replace: boolean;
	    digest: string;
	    result: string;
	
	    static createFrom(source: any = {}) {
	        return new ConnectRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.replace = source["replace"];
	        this.digest = source["digest"];
	        this.result = source["result"];
	    }
	}
	export class ContentView {
	    type: string;
	    text: string;
	    mimeType: string;
	    data: string;
	    uri: string;
	    name: string;
	    title: string;
	    link?: linkcheck.Report;
	    linkId?: string;
	    linkProblem?: string;
	    readable?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ContentView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.link = this.convertValues(source["link"], linkcheck.Report);
	        this.linkId = source["linkId"];
	        this.linkProblem = source["linkProblem"];
	        this.readable = source["readable"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConversationGrant {
	    serverId: string;
	    serverName: string;
	    tool: string;
	    allowedAt: string;
	    held: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ConversationGrant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.tool = source["tool"];
	        this.allowedAt = source["allowedAt"];
	        this.held = source["held"];
	    }
	}
	export class HistoryView {
	    id: number;
	    time: string;
	    serverId: string;
	    serverName: string;
	    mode: string;
	    tool: string;
	    source: string;
	    client?: string;
	    launcher?: string;
	    message: string;
	    summary?: i18n.Message;
	    fields: string[];
	    titles: Record<string, string>;
	    url: string;
	    outcome: string;
	    detail?: i18n.Message;
	    answerMs: number;
	    durationMs: number;
	    answer?: Record<string, any>;
	    arguments?: Record<string, any>;
	    result: string;
	    repeats: number;
	    lastTime: string;
	
	    static createFrom(source: any = {}) {
	        return new HistoryView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.time = source["time"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.mode = source["mode"];
	        this.tool = source["tool"];
	        this.source = source["source"];
	        this.client = source["client"];
	        this.launcher = source["launcher"];
	        this.message = source["message"];
	        this.summary = this.convertValues(source["summary"], i18n.Message);
	        this.fields = source["fields"];
	        this.titles = source["titles"];
	        this.url = source["url"];
	        this.outcome = source["outcome"];
	        this.detail = this.convertValues(source["detail"], i18n.Message);
	        this.answerMs = source["answerMs"];
	        this.durationMs = source["durationMs"];
	        this.answer = source["answer"];
	        this.arguments = source["arguments"];
	        this.result = source["result"];
	        this.repeats = source["repeats"];
	        this.lastTime = source["lastTime"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryPage {
	    entries: HistoryView[];
	    more: boolean;
	
	    static createFrom(source: any = {}) {
	        return new HistoryPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = this.convertValues(source["entries"], HistoryView);
	        this.more = source["more"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ImportChoice {
	    key: string;
	    name: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.name = source["name"];
	    }
	}
	export class ImportFailure {
	    key: string;
	    name: string;
	    message: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new ImportFailure(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.name = source["name"];
	        this.message = this.convertValues(source["message"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportLocation {
	    path: string;
	    format: string;
	    app: string;
	    project: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportLocation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.format = source["format"];
	        this.app = source["app"];
	        this.project = source["project"];
	    }
	}
	export class ImportRequest {
	    file: string;
	    digest: string;
	    servers: ImportChoice[];
	
	    static createFrom(source: any = {}) {
	        return new ImportRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.digest = source["digest"];
	        this.servers = this.convertValues(source["servers"], ImportChoice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ListCount {
	    tools: number;
	    resources: number;
	    prompts: number;
	
	    static createFrom(source: any = {}) {
	        return new ListCount(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tools = source["tools"];
	        this.resources = source["resources"];
	        this.prompts = source["prompts"];
	    }
	}
	export class StatusView {
	    state: string;
	    message: i18n.Message;
	    transport: string;
	    protocolVersion: string;
	    serverName: string;
	    serverVersion: string;
	    capabilities: string[];
	    since: string;
	    nextRetry: string;
	    counts: ListCount;
	    stderr: string[];
	
	    static createFrom(source: any = {}) {
	        return new StatusView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.message = this.convertValues(source["message"], i18n.Message);
	        this.transport = source["transport"];
	        this.protocolVersion = source["protocolVersion"];
	        this.serverName = source["serverName"];
	        this.serverVersion = source["serverVersion"];
	        this.capabilities = source["capabilities"];
	        this.since = source["since"];
	        this.nextRetry = source["nextRetry"];
	        this.counts = this.convertValues(source["counts"], ListCount);
	        this.stderr = source["stderr"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ServerInput {
	    name: string;
	    enabled: boolean;
	    transport: string;
	    command: string;
	    args: string[];
	    env: Record<string, string>;
	    dir: string;
	    inheritEnv: boolean;
	    url: string;
	    headers: Record<string, string>;
	    envLines?: string;
	    headerLines?: string;
	    noUrlMode: boolean;
	    clientId: string;
	    clientSecret: string;
	    clientMetadataUrl: string;
	    roots: string[];
	
	    static createFrom(source: any = {}) {
	        return new ServerInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.enabled = source["enabled"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.dir = source["dir"];
	        this.inheritEnv = source["inheritEnv"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.envLines = source["envLines"];
	        this.headerLines = source["headerLines"];
	        this.noUrlMode = source["noUrlMode"];
	        this.clientId = source["clientId"];
	        this.clientSecret = source["clientSecret"];
	        this.clientMetadataUrl = source["clientMetadataUrl"];
	        this.roots = source["roots"];
	    }
	}
	export class ServerView {
	    id: string;
	    input: ServerInput;
	    where: string;
	    status: StatusView;
	    demo: boolean;
	    logLevel: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.input = this.convertValues(source["input"], ServerInput);
	        this.where = source["where"];
	        this.status = this.convertValues(source["status"], StatusView);
	        this.demo = source["demo"];
	        this.logLevel = source["logLevel"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportResult {
	    added: ServerView[];
	    failed: ImportFailure[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = this.convertValues(source["added"], ServerView);
	        this.failed = this.convertValues(source["failed"], ImportFailure);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LanguageView {
	    choice: string;
	    language: string;
	    system: string;
	
	    static createFrom(source: any = {}) {
	        return new LanguageView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.choice = source["choice"];
	        this.language = source["language"];
	        this.system = source["system"];
	    }
	}
	export class Licences {
	    gatehouse: string;
	    modules: CompiledIn[];
	
	    static createFrom(source: any = {}) {
	        return new Licences(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.gatehouse = source["gatehouse"];
	        this.modules = this.convertValues(source["modules"], CompiledIn);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ModelView {
	    id: string;
	    displayName: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.displayName = source["displayName"];
	    }
	}
	export class OpenedView {
	    id: string;
	    serverId: string;
	    serverName: string;
	    message: string;
	    link?: linkcheck.Report;
	    openedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new OpenedView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.message = source["message"];
	        this.link = this.convertValues(source["link"], linkcheck.Report);
	        this.openedAt = source["openedAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PresetView {
	    id: string;
	    name: string;
	    kind: string;
	    baseUrl: string;
	    needsKey: boolean;
	    local: boolean;
	    quirks: llm.Quirks;
	
	    static createFrom(source: any = {}) {
	        return new PresetView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.baseUrl = source["baseUrl"];
	        this.needsKey = source["needsKey"];
	        this.local = source["local"];
	        this.quirks = this.convertValues(source["quirks"], llm.Quirks);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptArgumentView {
	    name: string;
	    title: string;
	    description: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArgumentView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class PromptMessageView {
	    role: string;
	    content: ContentView;
	
	    static createFrom(source: any = {}) {
	        return new PromptMessageView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.content = this.convertValues(source["content"], ContentView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptResultView {
	    description: string;
	    messages: PromptMessageView[];
	
	    static createFrom(source: any = {}) {
	        return new PromptResultView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.description = source["description"];
	        this.messages = this.convertValues(source["messages"], PromptMessageView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PromptView {
	    name: string;
	    title: string;
	    description: string;
	    arguments: PromptArgumentView[];
	
	    static createFrom(source: any = {}) {
	        return new PromptView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArgumentView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderInput {
	    name: string;
	    kind: string;
	    preset: string;
	    baseUrl: string;
	    model: string;
	    apiKey: string;
	    clearKey: boolean;
	    quirks: llm.Quirks;
	
	    static createFrom(source: any = {}) {
	        return new ProviderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	        this.apiKey = source["apiKey"];
	        this.clearKey = source["clearKey"];
	        this.quirks = this.convertValues(source["quirks"], llm.Quirks);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderView {
	    id: string;
	    name: string;
	    kind: string;
	    preset: string;
	    baseUrl: string;
	    model: string;
	    keyHint: string;
	    isDefault: boolean;
	    quirks: llm.Quirks;
	
	    static createFrom(source: any = {}) {
	        return new ProviderView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	        this.keyHint = source["keyHint"];
	        this.isDefault = source["isDefault"];
	        this.quirks = this.convertValues(source["quirks"], llm.Quirks);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderList {
	    version: number;
	    providers: ProviderView[];
	
	    static createFrom(source: any = {}) {
	        return new ProviderList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.providers = this.convertValues(source["providers"], ProviderView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class QuestionView {
	    id: string;
	    kind: string;
	    server: mcp.ServerRef;
	    message: string;
	    form?: forms.Form;
	    link?: linkcheck.Report;
	    opensPage: boolean;
	    toolCall?: mcp.ToolCall;
	    sampling?: mcp.Sampling;
	    appMessage?: mcp.AppMessage;
	    appLink?: mcp.AppLink;
	    receivedAt: string;
	    deadline: string;
	
	    static createFrom(source: any = {}) {
	        return new QuestionView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.server = this.convertValues(source["server"], mcp.ServerRef);
	        this.message = source["message"];
	        this.form = this.convertValues(source["form"], forms.Form);
	        this.link = this.convertValues(source["link"], linkcheck.Report);
	        this.opensPage = source["opensPage"];
	        this.toolCall = this.convertValues(source["toolCall"], mcp.ToolCall);
	        this.sampling = this.convertValues(source["sampling"], mcp.Sampling);
	        this.appMessage = this.convertValues(source["appMessage"], mcp.AppMessage);
	        this.appLink = this.convertValues(source["appLink"], mcp.AppLink);
	        this.receivedAt = source["receivedAt"];
	        this.deadline = source["deadline"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResourceContentView {
	    index: number;
	    uri: string;
	    mimeType: string;
	    kind: string;
	    text: string;
	    offset: number;
	    nextOffset: number;
	    size: number;
	    dataUrl: string;
	    fileName: string;
	    note?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new ResourceContentView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.uri = source["uri"];
	        this.mimeType = source["mimeType"];
	        this.kind = source["kind"];
	        this.text = source["text"];
	        this.offset = source["offset"];
	        this.nextOffset = source["nextOffset"];
	        this.size = source["size"];
	        this.dataUrl = source["dataUrl"];
	        this.fileName = source["fileName"];
	        this.note = this.convertValues(source["note"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TemplateView {
	    uriTemplate: string;
	    name: string;
	    title: string;
	    description: string;
	    mimeType: string;
	    variables: string[];
	    problem?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new TemplateView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uriTemplate = source["uriTemplate"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.variables = source["variables"];
	        this.problem = this.convertValues(source["problem"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResourceView {
	    uri: string;
	    name: string;
	    title: string;
	    description: string;
	    mimeType: string;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new ResourceView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.size = source["size"];
	    }
	}
	export class ResourceListView {
	    resources: ResourceView[];
	    templates: TemplateView[];
	    more: boolean;
	    canSubscribe: boolean;
	    canComplete: boolean;
	    subscribed: string[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceListView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resources = this.convertValues(source["resources"], ResourceView);
	        this.templates = this.convertValues(source["templates"], TemplateView);
	        this.more = source["more"];
	        this.canSubscribe = source["canSubscribe"];
	        this.canComplete = source["canComplete"];
	        this.subscribed = source["subscribed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ResourceReadView {
	    serverId: string;
	    uri: string;
	    contents: ResourceContentView[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceReadView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.uri = source["uri"];
	        this.contents = this.convertValues(source["contents"], ResourceContentView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class ServerList {
	    version: number;
	    servers: ServerView[];
	
	    static createFrom(source: any = {}) {
	        return new ServerList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.servers = this.convertValues(source["servers"], ServerView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolHints {
	    readOnly: boolean;
	    destructive: boolean;
	    idempotent: boolean;
	    openWorld: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolHints(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.readOnly = source["readOnly"];
	        this.destructive = source["destructive"];
	        this.idempotent = source["idempotent"];
	        this.openWorld = source["openWorld"];
	    }
	}
	export class ToolPolicyView {
	    name: string;
	    title: string;
	    hints: ToolHints;
	    offered: boolean;
	    mode: store.ToolMode;
	    effective: store.ToolMode;
	    why: i18n.Message;
	    held: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolPolicyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.hints = this.convertValues(source["hints"], ToolHints);
	        this.offered = source["offered"];
	        this.mode = source["mode"];
	        this.effective = source["effective"];
	        this.why = this.convertValues(source["why"], i18n.Message);
	        this.held = source["held"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ServerPolicyView {
	    serverId: string;
	    serverName: string;
	    connected: boolean;
	    mode: store.ToolMode;
	    trusted: boolean;
	    requests: string;
	    mutedUntil: string;
	    tools: ToolPolicyView[];
	
	    static createFrom(source: any = {}) {
	        return new ServerPolicyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.connected = source["connected"];
	        this.mode = source["mode"];
	        this.trusted = source["trusted"];
	        this.requests = source["requests"];
	        this.mutedUntil = source["mutedUntil"];
	        this.tools = this.convertValues(source["tools"], ToolPolicyView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SettingsView {
	    elicitationTimeoutMinutes: number;
	    toolCallTimeoutSeconds: number;
	    rememberAnswers: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.elicitationTimeoutMinutes = source["elicitationTimeoutMinutes"];
	        this.toolCallTimeoutSeconds = source["toolCallTimeoutSeconds"];
	        this.rememberAnswers = source["rememberAnswers"];
	    }
	}
	export class SnapshotView {
	    version: number;
	    current?: QuestionView;
	    waiting: mcp.Waiting[];
	    opened: OpenedView[];
	    notices: mcp.Notice[];
	
	    static createFrom(source: any = {}) {
	        return new SnapshotView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.current = this.convertValues(source["current"], QuestionView);
	        this.waiting = this.convertValues(source["waiting"], mcp.Waiting);
	        this.opened = this.convertValues(source["opened"], OpenedView);
	        this.notices = this.convertValues(source["notices"], mcp.Notice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SubmitResult {
	    sent: boolean;
	    errors: Record<string, i18n.Message>;
	
	    static createFrom(source: any = {}) {
	        return new SubmitResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sent = source["sent"];
	        this.errors = this.convertValues(source["errors"], i18n.Message, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TestResult {
	    models: ModelView[];
	    problem?: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new TestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.models = this.convertValues(source["models"], ModelView);
	        this.problem = this.convertValues(source["problem"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ThemeView {
	    choice: string;
	    system: string;
	
	    static createFrom(source: any = {}) {
	        return new ThemeView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.choice = source["choice"];
	        this.system = source["system"];
	    }
	}
	export class ToolAppView {
	    resourceUri: string;
	    forModel: boolean;
	    forApp: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolAppView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resourceUri = source["resourceUri"];
	        this.forModel = source["forModel"];
	        this.forApp = source["forApp"];
	    }
	}
	export class ToolFormView {
	    form: forms.Form;
	    inputSchema: string;
	    schemaId: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolFormView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.form = this.convertValues(source["form"], forms.Form);
	        this.inputSchema = source["inputSchema"];
	        this.schemaId = source["schemaId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class ToolResultView {
	    isError: boolean;
	    content: ContentView[];
	    structured: string;
	    structuredView?: visible.Node;
	    structuredWarning?: i18n.Message;
	    durationMs: number;
	    argumentErrors: Record<string, i18n.Message>;
	
	    static createFrom(source: any = {}) {
	        return new ToolResultView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.isError = source["isError"];
	        this.content = this.convertValues(source["content"], ContentView);
	        this.structured = source["structured"];
	        this.structuredView = this.convertValues(source["structuredView"], visible.Node);
	        this.structuredWarning = this.convertValues(source["structuredWarning"], i18n.Message);
	        this.durationMs = source["durationMs"];
	        this.argumentErrors = this.convertValues(source["argumentErrors"], i18n.Message, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolView {
	    name: string;
	    title: string;
	    description: string;
	    annotations: ToolHints;
	    schemaId: string;
	    hasOutputSchema: boolean;
	    needsTask: boolean;
	    app?: ToolAppView;
	
	    static createFrom(source: any = {}) {
	        return new ToolView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.annotations = this.convertValues(source["annotations"], ToolHints);
	        this.schemaId = source["schemaId"];
	        this.hasOutputSchema = source["hasOutputSchema"];
	        this.needsTask = source["needsTask"];
	        this.app = this.convertValues(source["app"], ToolAppView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoRequest {
	    app: string;
	    digest: string;
	    result: string;
	
	    static createFrom(source: any = {}) {
	        return new UndoRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.digest = source["digest"];
	        this.result = source["result"];
	    }
	}

}

export namespace chat {
	
	export class AttachmentRequest {
	    serverId: string;
	    uri: string;
	    name: string;
	    mimeType?: string;
	    text?: string;
	    image?: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.text = source["text"];
	        this.image = source["image"];
	    }
	}

}

export namespace connectapp {
	
	export class Entry {
	    name: string;
	    command: string;
	    args: string[];
	
	    static createFrom(source: any = {}) {
	        return new Entry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.args = source["args"];
	    }
	}
	export class Change {
	    app: string;
	    appName: string;
	    file: string;
	    exists: boolean;
	    digest: string;
	    entry: Entry;
	    unchanged: boolean;
	    removed: string[];
	    kept: string[];
	    diff: string;
	    result: string;
	
	    static createFrom(source: any = {}) {
	        return new Change(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.appName = source["appName"];
	        this.file = source["file"];
	        this.exists = source["exists"];
	        this.digest = source["digest"];
	        this.entry = this.convertValues(source["entry"], Entry);
	        this.unchanged = source["unchanged"];
	        this.removed = source["removed"];
	        this.kept = source["kept"];
	        this.diff = source["diff"];
	        this.result = source["result"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Status {
	    app: string;
	    appName: string;
	    file: string;
	    exists: boolean;
	    connected: boolean;
	    problem: i18n.Message;
	    canUndo: boolean;
	    undoTime: string;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.appName = source["appName"];
	        this.file = source["file"];
	        this.exists = source["exists"];
	        this.connected = source["connected"];
	        this.problem = this.convertValues(source["problem"], i18n.Message);
	        this.canUndo = source["canUndo"];
	        this.undoTime = source["undoTime"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoChange {
	    app: string;
	    appName: string;
	    file: string;
	    whole: boolean;
	    entry: string;
	    restored: string[];
	    unchanged: boolean;
	    digest: string;
	    result: string;
	    diff: string;
	    time: string;
	
	    static createFrom(source: any = {}) {
	        return new UndoChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.appName = source["appName"];
	        this.file = source["file"];
	        this.whole = source["whole"];
	        this.entry = source["entry"];
	        this.restored = source["restored"];
	        this.unchanged = source["unchanged"];
	        this.digest = source["digest"];
	        this.result = source["result"];
	        this.diff = source["diff"];
	        this.time = source["time"];
	    }
	}
	export class Undone {
	    file: string;
	    removed: boolean;
	    time: string;
	    backup: string;
	    forgotten: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Undone(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.removed = source["removed"];
	        this.time = source["time"];
	        this.backup = source["backup"];
	        this.forgotten = source["forgotten"];
	    }
	}
	export class Written {
	    file: string;
	    backup: string;
	    created: boolean;
	    removed: string[];
	
	    static createFrom(source: any = {}) {
	        return new Written(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.backup = source["backup"];
	        this.created = source["created"];
	        this.removed = source["removed"];
	    }
	}

}

export namespace forms {
	
	export class Option {
	    value: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new Option(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.label = source["label"];
	    }
	}
	export class Field {
	    name: string;
	    label: string;
	    description: string;
	    kind: string;
	    required: boolean;
	    default?: any;
	    minimum?: number;
	    maximum?: number;
	    minLength?: number;
	    maxLength?: number;
	    pattern?: string;
	    minItems?: number;
	    maxItems?: number;
	    options: Option[];
	    hints: i18n.Message[];
	    sensitive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Field(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.label = source["label"];
	        this.description = source["description"];
	        this.kind = source["kind"];
	        this.required = source["required"];
	        this.default = source["default"];
	        this.minimum = source["minimum"];
	        this.maximum = source["maximum"];
	        this.minLength = source["minLength"];
	        this.maxLength = source["maxLength"];
	        this.pattern = source["pattern"];
	        this.minItems = source["minItems"];
	        this.maxItems = source["maxItems"];
	        this.options = this.convertValues(source["options"], Option);
	        this.hints = this.convertValues(source["hints"], i18n.Message);
	        this.sensitive = source["sensitive"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Form {
	    fields: Field[];
	    complete: boolean;
	    reason?: i18n.Message;
	    secretFields: string[];
	
	    static createFrom(source: any = {}) {
	        return new Form(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fields = this.convertValues(source["fields"], Field);
	        this.complete = source["complete"];
	        this.reason = this.convertValues(source["reason"], i18n.Message);
	        this.secretFields = source["secretFields"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace i18n {
	
	export class Message {
	    key: string;
	    args: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.args = source["args"];
	    }
	}

}

export namespace importcfg {
	
	export class Note {
	    kind: string;
	    message: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Note(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.message = this.convertValues(source["message"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Setting {
	    name: string;
	    value: string;
	    text: string;
	    runtime: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Setting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = source["value"];
	        this.text = source["text"];
	        this.runtime = source["runtime"];
	    }
	}
	export class Entry {
	    key: string;
	    sourceName: string;
	    name: string;
	    scope: string;
	    import: boolean;
	    enabled: boolean;
	    transport: string;
	    kind: string;
	    command: string;
	    args: string[];
	    dir: string;
	    url: string;
	    commandLine: string;
	    env: Setting[];
	    headers: Setting[];
	    notes: Note[];
	
	    static createFrom(source: any = {}) {
	        return new Entry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.sourceName = source["sourceName"];
	        this.name = source["name"];
	        this.scope = source["scope"];
	        this.import = source["import"];
	        this.enabled = source["enabled"];
	        this.transport = source["transport"];
	        this.kind = source["kind"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.dir = source["dir"];
	        this.url = source["url"];
	        this.commandLine = source["commandLine"];
	        this.env = this.convertValues(source["env"], Setting);
	        this.headers = this.convertValues(source["headers"], Setting);
	        this.notes = this.convertValues(source["notes"], Note);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Preview {
	    file: string;
	    digest: string;
	    format: string;
	    guess: boolean;
	    others: string[];
	    formatNote: i18n.Message;
	    project: string;
	    notes: Note[];
	    servers: Entry[];
	
	    static createFrom(source: any = {}) {
	        return new Preview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.digest = source["digest"];
	        this.format = source["format"];
	        this.guess = source["guess"];
	        this.others = source["others"];
	        this.formatNote = this.convertValues(source["formatNote"], i18n.Message);
	        this.project = source["project"];
	        this.notes = this.convertValues(source["notes"], Note);
	        this.servers = this.convertValues(source["servers"], Entry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace linkcheck {
	
	export class Warning {
	    kind: string;
	    message: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.message = this.convertValues(source["message"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Report {
	    url: string;
	    scheme: string;
	    host: string;
	    asciiHost: string;
	    port: string;
	    domain: string;
	    asciiDomain: string;
	    display: string;
	    before: string;
	    domainPart: string;
	    after: string;
	    loopback: boolean;
	    warnings: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.url = source["url"];
	        this.scheme = source["scheme"];
	        this.host = source["host"];
	        this.asciiHost = source["asciiHost"];
	        this.port = source["port"];
	        this.domain = source["domain"];
	        this.asciiDomain = source["asciiDomain"];
	        this.display = source["display"];
	        this.before = source["before"];
	        this.domainPart = source["domainPart"];
	        this.after = source["after"];
	        this.loopback = source["loopback"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace llm {
	
	export class Quirks {
	    echoReasoning?: boolean;
	    toolStream?: boolean;
	    maxCompletionTokens?: boolean;
	    images?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Quirks(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.echoReasoning = source["echoReasoning"];
	        this.toolStream = source["toolStream"];
	        this.maxCompletionTokens = source["maxCompletionTokens"];
	        this.images = source["images"];
	    }
	}

}

export namespace mcp {
	
	export class AppLink {
	    app: string;
	
	    static createFrom(source: any = {}) {
	        return new AppLink(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	    }
	}
	export class AppMessage {
	    app: string;
	    context: boolean;
	    text: string;
	    conversationId: string;
	    conversation: string;
	
	    static createFrom(source: any = {}) {
	        return new AppMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.app = source["app"];
	        this.context = source["context"];
	        this.text = source["text"];
	        this.conversationId = source["conversationId"];
	        this.conversation = source["conversation"];
	    }
	}
	export class Client {
	    name: string;
	    version: string;
	    launcher: string;
	    command: string;
	    pid: number;
	
	    static createFrom(source: any = {}) {
	        return new Client(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.version = source["version"];
	        this.launcher = source["launcher"];
	        this.command = source["command"];
	        this.pid = source["pid"];
	    }
	}
	export class LogLine {
	    source: string;
	    at: string;
	    level: string;
	    logger: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new LogLine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.at = source["at"];
	        this.level = source["level"];
	        this.logger = source["logger"];
	        this.text = source["text"];
	    }
	}
	export class Notice {
	    id: string;
	    kind: string;
	    serverId: string;
	    serverName: string;
	    refused: number;
	    message: i18n.Message;
	
	    static createFrom(source: any = {}) {
	        return new Notice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.refused = source["refused"];
	        this.message = this.convertValues(source["message"], i18n.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SamplingResult {
	    model: string;
	    text: string;
	    stopReason: string;
	
	    static createFrom(source: any = {}) {
	        return new SamplingResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.text = source["text"];
	        this.stopReason = source["stopReason"];
	    }
	}
	export class SamplingModel {
	    id: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new SamplingModel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	    }
	}
	export class SamplingMessage {
	    role: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new SamplingMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.text = source["text"];
	    }
	}
	export class Sampling {
	    systemPrompt: string;
	    messages: SamplingMessage[];
	    modelHints: string[];
	    maxTokens: number;
	    models: SamplingModel[];
	    result?: SamplingResult;
	
	    static createFrom(source: any = {}) {
	        return new Sampling(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.systemPrompt = source["systemPrompt"];
	        this.messages = this.convertValues(source["messages"], SamplingMessage);
	        this.modelHints = source["modelHints"];
	        this.maxTokens = source["maxTokens"];
	        this.models = this.convertValues(source["models"], SamplingModel);
	        this.result = this.convertValues(source["result"], SamplingResult);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SamplingEdit {
	    model: string;
	    systemPrompt: string;
	    messages: SamplingMessage[];
	
	    static createFrom(source: any = {}) {
	        return new SamplingEdit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.systemPrompt = source["systemPrompt"];
	        this.messages = this.convertValues(source["messages"], SamplingMessage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class ServerRef {
	    id: string;
	    name: string;
	    where: string;
	    selfName: string;
	    selfVersion: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.where = source["where"];
	        this.selfName = source["selfName"];
	        this.selfVersion = source["selfVersion"];
	    }
	}
	export class ToolChange {
	    part: string;
	    was?: string;
	    now?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.part = source["part"];
	        this.was = source["was"];
	        this.now = source["now"];
	    }
	}
	export class ToolCall {
	    tool: string;
	    title: string;
	    description: string;
	    arguments: any;
	    view: visible.Node;
	    readOnly: boolean;
	    destructive: boolean;
	    conversationId: string;
	    conversation: string;
	    held?: string;
	    changes?: ToolChange[];
	    app?: string;
	    client?: Client;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = source["arguments"];
	        this.view = this.convertValues(source["view"], visible.Node);
	        this.readOnly = source["readOnly"];
	        this.destructive = source["destructive"];
	        this.conversationId = source["conversationId"];
	        this.conversation = source["conversation"];
	        this.held = source["held"];
	        this.changes = this.convertValues(source["changes"], ToolChange);
	        this.app = source["app"];
	        this.client = this.convertValues(source["client"], Client);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Waiting {
	    id: string;
	    kind: string;
	    serverId: string;
	    serverName: string;
	    message: string;
	    receivedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Waiting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.message = source["message"];
	        this.receivedAt = source["receivedAt"];
	    }
	}

}

export namespace store {
	
	export enum ToolMode {
	    ALLOW = "allow",
	    ASK = "ask",
	    DEFAULT = "default",
	    DENY = "deny",
	}
	export class Attachment {
	    serverId: string;
	    serverName: string;
	    uri: string;
	    name: string;
	    mimeType?: string;
	    size: number;
	    text?: string;
	    image?: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.size = source["size"];
	        this.text = source["text"];
	        this.image = source["image"];
	    }
	}
	export class ToolSeen {
	    fingerprint: string;
	    server?: string;
	    name?: string;
	    title?: string;
	    schema?: string;
	    annotations?: string;
	    descriptionHash?: string;
	    description?: string;
	    at: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolSeen(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fingerprint = source["fingerprint"];
	        this.server = source["server"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.schema = source["schema"];
	        this.annotations = source["annotations"];
	        this.descriptionHash = source["descriptionHash"];
	        this.description = source["description"];
	        this.at = source["at"];
	    }
	}
	export class ClientToolMode {
	    serverId: string;
	    tool?: string;
	    mode: ToolMode;
	    seen?: ToolSeen;
	
	    static createFrom(source: any = {}) {
	        return new ClientToolMode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.tool = source["tool"];
	        this.mode = source["mode"];
	        this.seen = this.convertValues(source["seen"], ToolSeen);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ClientApp {
	    id: string;
	    name: string;
	    version?: string;
	    launcher?: string;
	    command?: string;
	    // Go type: time
	    firstSeen: any;
	    // Go type: time
	    lastSeen: any;
	    calls: number;
	    limited?: boolean;
	    servers?: string[];
	    tools?: ClientToolMode[];
	    cutOff?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ClientApp(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.version = source["version"];
	        this.launcher = source["launcher"];
	        this.command = source["command"];
	        this.firstSeen = this.convertValues(source["firstSeen"], null);
	        this.lastSeen = this.convertValues(source["lastSeen"], null);
	        this.calls = source["calls"];
	        this.limited = source["limited"];
	        this.servers = source["servers"];
	        this.tools = this.convertValues(source["tools"], ClientToolMode);
	        this.cutOff = source["cutOff"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolGrant {
	    serverId: string;
	    tool: string;
	    seen?: ToolSeen;
	
	    static createFrom(source: any = {}) {
	        return new ToolGrant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.tool = source["tool"];
	        this.seen = this.convertValues(source["seen"], ToolSeen);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Conversation {
	    id: string;
	    title: string;
	    providerId?: string;
	    model?: string;
	    systemPrompt?: string;
	    servers?: string[];
	    allowedTools?: ToolGrant[];
	    createdAt: string;
	    updatedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Conversation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.providerId = source["providerId"];
	        this.model = source["model"];
	        this.systemPrompt = source["systemPrompt"];
	        this.servers = source["servers"];
	        this.allowedTools = this.convertValues(source["allowedTools"], ToolGrant);
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Usage {
	    input: number;
	    output: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input = source["input"];
	        this.output = source["output"];
	    }
	}
	export class ToolResult {
	    content?: unknown;
	    isError?: boolean;
	    denied?: boolean;
	    interrupted?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.isError = source["isError"];
	        this.denied = source["denied"];
	        this.interrupted = source["interrupted"];
	    }
	}
	export class ToolCall {
	    id: string;
	    name?: string;
	    serverId: string;
	    tool: string;
	    arguments?: unknown;
	    view?: visible.Node;
	    app?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.serverId = source["serverId"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	        this.view = this.convertValues(source["view"], visible.Node);
	        this.app = source["app"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    conversationId: string;
	    seq: number;
	    role: string;
	    text?: string;
	    reasoning?: string;
	    providerData?: unknown;
	    toolCalls?: ToolCall[];
	    toolCallId?: string;
	    toolResult?: ToolResult;
	    usage?: Usage;
	    providerId?: string;
	    model?: string;
	    error?: string;
	    contextTooLong?: boolean;
	    dropped?: boolean;
	    attachments?: Attachment[];
	    truncated?: string;
	    createdAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.seq = source["seq"];
	        this.role = source["role"];
	        this.text = source["text"];
	        this.reasoning = source["reasoning"];
	        this.providerData = source["providerData"];
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.toolCallId = source["toolCallId"];
	        this.toolResult = this.convertValues(source["toolResult"], ToolResult);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.providerId = source["providerId"];
	        this.model = source["model"];
	        this.error = source["error"];
	        this.contextTooLong = source["contextTooLong"];
	        this.dropped = source["dropped"];
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	        this.truncated = source["truncated"];
	        this.createdAt = source["createdAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MessagePage {
	    messages: Message[];
	    more: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MessagePage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.more = source["more"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	

}

export namespace visible {
	
	export class Segment {
	    text?: string;
	    code?: string;
	
	    static createFrom(source: any = {}) {
	        return new Segment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.code = source["code"];
	    }
	}
	export class Node {
	    kind: string;
	    key?: Segment[];
	    text?: string;
	    segments?: Segment[];
	    children?: Node[];
	    open?: boolean;
	    repeated?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Node(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.key = this.convertValues(source["key"], Segment);
	        this.text = source["text"];
	        this.segments = this.convertValues(source["segments"], Segment);
	        this.children = this.convertValues(source["children"], Node);
	        this.open = source["open"];
	        this.repeated = source["repeated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

