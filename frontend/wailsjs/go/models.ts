export namespace app {
	
	export class AppInfo {
	    version: string;
	    dataDir: string;
	    dbPath: string;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	        this.dbPath = source["dbPath"];
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
	    }
	}
	export class OptionView {
	    value: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new OptionView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.label = source["label"];
	    }
	}
	export class FieldView {
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
	    options?: OptionView[];
	    sensitive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FieldView(source);
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
	        this.options = this.convertValues(source["options"], OptionView);
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
	export class ElicitationView {
	    id: string;
	    serverName: string;
	    serverId: string;
	    where: string;
	    selfName: string;
	    selfVersion: string;
	    mode: string;
	    message: string;
	    fields: FieldView[];
	    sensitive: boolean;
	    receivedAt: string;
	    deadline: string;
	
	    static createFrom(source: any = {}) {
	        return new ElicitationView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.serverName = source["serverName"];
	        this.serverId = source["serverId"];
	        this.where = source["where"];
	        this.selfName = source["selfName"];
	        this.selfVersion = source["selfVersion"];
	        this.mode = source["mode"];
	        this.message = source["message"];
	        this.fields = this.convertValues(source["fields"], FieldView);
	        this.sensitive = source["sensitive"];
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
	
	export class FormView {
	    fields: FieldView[];
	    complete: boolean;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new FormView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fields = this.convertValues(source["fields"], FieldView);
	        this.complete = source["complete"];
	        this.reason = source["reason"];
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
	export class HistoryView {
	    id: number;
	    time: string;
	    serverId: string;
	    serverName: string;
	    mode: string;
	    message: string;
	    fields: string[];
	    outcome: string;
	    detail: string;
	    answerMs: number;
	    answer?: Record<string, any>;
	
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
	        this.message = source["message"];
	        this.fields = source["fields"];
	        this.outcome = source["outcome"];
	        this.detail = source["detail"];
	        this.answerMs = source["answerMs"];
	        this.answer = source["answer"];
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
	
	export class PolicyView {
	    mode: string;
	    mutedUntil: string;
	
	    static createFrom(source: any = {}) {
	        return new PolicyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.mutedUntil = source["mutedUntil"];
	    }
	}
	export class QueueEntryView {
	    id: string;
	    serverId: string;
	    serverName: string;
	    message: string;
	    receivedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new QueueEntryView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.serverId = source["serverId"];
	        this.serverName = source["serverName"];
	        this.message = source["message"];
	        this.receivedAt = source["receivedAt"];
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
	    url: string;
	    headers: Record<string, string>;
	
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
	        this.url = source["url"];
	        this.headers = source["headers"];
	    }
	}
	export class StatusView {
	    state: string;
	    message: string;
	    transport: string;
	    protocolVersion: string;
	    serverName: string;
	    serverVersion: string;
	    capabilities: string[];
	    since: string;
	    nextRetry: string;
	    counts: ListCount;
	
	    static createFrom(source: any = {}) {
	        return new StatusView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.message = source["message"];
	        this.transport = source["transport"];
	        this.protocolVersion = source["protocolVersion"];
	        this.serverName = source["serverName"];
	        this.serverVersion = source["serverVersion"];
	        this.capabilities = source["capabilities"];
	        this.since = source["since"];
	        this.nextRetry = source["nextRetry"];
	        this.counts = this.convertValues(source["counts"], ListCount);
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
	export class ServerView {
	    id: string;
	    input: ServerInput;
	    where: string;
	    status: StatusView;
	
	    static createFrom(source: any = {}) {
	        return new ServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.input = this.convertValues(source["input"], ServerInput);
	        this.where = source["where"];
	        this.status = this.convertValues(source["status"], StatusView);
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
	
	export class SubmitResult {
	    sent: boolean;
	    errors: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new SubmitResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sent = source["sent"];
	        this.errors = source["errors"];
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
	export class ToolResultView {
	    isError: boolean;
	    content: ContentView[];
	    structured: string;
	    structuredWarning: string;
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolResultView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.isError = source["isError"];
	        this.content = this.convertValues(source["content"], ContentView);
	        this.structured = source["structured"];
	        this.structuredWarning = source["structuredWarning"];
	        this.durationMs = source["durationMs"];
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
	    form: FormView;
	    inputSchema: string;
	    hasOutputSchema: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.annotations = this.convertValues(source["annotations"], ToolHints);
	        this.form = this.convertValues(source["form"], FormView);
	        this.inputSchema = source["inputSchema"];
	        this.hasOutputSchema = source["hasOutputSchema"];
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

export namespace mcp {
	
	export class Option {
	    Value: string;
	    Label: string;
	
	    static createFrom(source: any = {}) {
	        return new Option(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.Value = source["Value"];
	        this.Label = source["Label"];
	    }
	}
	export class Field {
	    Name: string;
	    Label: string;
	    Description: string;
	    Kind: string;
	    Required: boolean;
	    Default: any;
	    Minimum?: number;
	    Maximum?: number;
	    MinLength?: number;
	    MaxLength?: number;
	    Pattern: string;
	    MinItems?: number;
	    MaxItems?: number;
	    Options: Option[];
	    Sensitive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Field(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.Name = source["Name"];
	        this.Label = source["Label"];
	        this.Description = source["Description"];
	        this.Kind = source["Kind"];
	        this.Required = source["Required"];
	        this.Default = source["Default"];
	        this.Minimum = source["Minimum"];
	        this.Maximum = source["Maximum"];
	        this.MinLength = source["MinLength"];
	        this.MaxLength = source["MaxLength"];
	        this.Pattern = source["Pattern"];
	        this.MinItems = source["MinItems"];
	        this.MaxItems = source["MaxItems"];
	        this.Options = this.convertValues(source["Options"], Option);
	        this.Sensitive = source["Sensitive"];
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
	    Fields: Field[];
	    Complete: boolean;
	    Reason: string;
	
	    static createFrom(source: any = {}) {
	        return new Form(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.Fields = this.convertValues(source["Fields"], Field);
	        this.Complete = source["Complete"];
	        this.Reason = source["Reason"];
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
	export class Notice {
	    ServerID: string;
	    ServerName: string;
	    Kind: string;
	    Refused: number;
	
	    static createFrom(source: any = {}) {
	        return new Notice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ServerID = source["ServerID"];
	        this.ServerName = source["ServerName"];
	        this.Kind = source["Kind"];
	        this.Refused = source["Refused"];
	    }
	}
	
	export class Peer {
	    Server: store.Server;
	    Where: string;
	    SelfName: string;
	    SelfVersion: string;
	
	    static createFrom(source: any = {}) {
	        return new Peer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.Server = this.convertValues(source["Server"], store.Server);
	        this.Where = source["Where"];
	        this.SelfName = source["SelfName"];
	        this.SelfVersion = source["SelfVersion"];
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
	export class QueueEntry {
	    ID: string;
	    ServerID: string;
	    ServerName: string;
	    Message: string;
	    // Go type: time
	    ReceivedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new QueueEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ID = source["ID"];
	        this.ServerID = source["ServerID"];
	        this.ServerName = source["ServerName"];
	        this.Message = source["Message"];
	        this.ReceivedAt = this.convertValues(source["ReceivedAt"], null);
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
	export class Request {
	    ID: string;
	    Peer: Peer;
	    Mode: string;
	    Message: string;
	    Form?: Form;
	    // Go type: time
	    ReceivedAt: any;
	    // Go type: time
	    Deadline: any;
	
	    static createFrom(source: any = {}) {
	        return new Request(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ID = source["ID"];
	        this.Peer = this.convertValues(source["Peer"], Peer);
	        this.Mode = source["Mode"];
	        this.Message = source["Message"];
	        this.Form = this.convertValues(source["Form"], Form);
	        this.ReceivedAt = this.convertValues(source["ReceivedAt"], null);
	        this.Deadline = this.convertValues(source["Deadline"], null);
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
	export class Response {
	    Action: string;
	    Values: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Response(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.Action = source["Action"];
	        this.Values = source["Values"];
	    }
	}

}

export namespace store {
	
	export class HTTPConfig {
	    url: string;
	    headers?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new HTTPConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.url = source["url"];
	        this.headers = source["headers"];
	    }
	}
	export class StdioConfig {
	    command: string;
	    args?: string[];
	    env?: Record<string, string>;
	    dir?: string;
	
	    static createFrom(source: any = {}) {
	        return new StdioConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.dir = source["dir"];
	    }
	}
	export class Server {
	    id: string;
	    name: string;
	    enabled: boolean;
	    transport: string;
	    stdio?: StdioConfig;
	    http?: HTTPConfig;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    disableUrlMode?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Server(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.enabled = source["enabled"];
	        this.transport = source["transport"];
	        this.stdio = this.convertValues(source["stdio"], StdioConfig);
	        this.http = this.convertValues(source["http"], HTTPConfig);
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.disableUrlMode = source["disableUrlMode"];
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

