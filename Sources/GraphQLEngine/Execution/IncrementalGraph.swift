/// The order in which deferred work is released and reported (graphql-js 17's work queue, as
/// graphql-core 3.3 ports it): delivery groups form a tree (a nested `@defer` waits for its
/// parent); a group is released (announced as `pending`, its execution groups started) once its
/// parent completed; it completes when all its execution groups have, and each group's values
/// are reported once, with the first of its groups to complete. A group with no execution group
/// is never announced: its children take its place. Streams are released with the execution
/// group that found them.
///
/// The executor feeds it what finished (``push(_:)``); ``drain()`` turns that into the events
/// one payload reports. It starts nothing itself: releasing work calls back into the executor.
final class IncrementalGraph {
    /// What the executor reports.
    enum Input {
        case taskSucceeded(ExecutionGroupTask, ExecutionGroupValue, IncrementalWorkList)
        case taskFailed(ExecutionGroupTask, [GraphQLError])
        case streamItems(ItemStream, [(StreamItemValue, IncrementalWorkList)], isStopped: Bool)
        case streamSucceeded(ItemStream)
        case streamFailed(ItemStream, [GraphQLError])
    }

    /// What a payload reports.
    enum Event {
        case groupValues(DeliveryGroup, [ExecutionGroupValue])
        case groupSucceeded(DeliveryGroup, newGroups: [DeliveryGroup], newStreams: [ItemStream])
        case groupFailed(DeliveryGroup, [GraphQLError])
        case streamValues(ItemStream, [StreamItemValue], newGroups: [DeliveryGroup], newStreams: [ItemStream])
        case streamSucceeded(ItemStream)
        case streamFailed(ItemStream, [GraphQLError])
        case finished
    }

    private final class GroupNode {
        var children: [DeliveryGroup] = []
        var tasks: [ExecutionGroupTask] = []
        var pending = 0
    }

    private final class TaskNode {
        var value: ExecutionGroupValue?
        var failure: [GraphQLError]?
        var childStreams: [ItemStream] = []
    }

    private var rootGroups: [DeliveryGroup] = []
    private var rootStreams: [ItemStream] = []
    private var groupNodes: [ObjectIdentifier: GroupNode] = [:]
    private var taskNodes: [ObjectIdentifier: TaskNode] = [:]
    private var inputs: [Input] = []
    private var isFinished = false
    private let startTask: (ExecutionGroupTask) -> Void
    private let startStream: (ItemStream) -> Void

    /// The groups and streams the initial payload announces.
    private(set) var initialGroups: [DeliveryGroup] = []
    private(set) var initialStreams: [ItemStream] = []

    init(
        initial work: IncrementalWorkList, startTask: @escaping (ExecutionGroupTask) -> Void,
        startStream: @escaping (ItemStream) -> Void
    ) {
        self.startTask = startTask
        self.startStream = startStream
        let (newGroups, newStreams) = integrate(work, parent: nil)
        initialGroups = prune(newGroups)
        initialStreams = newStreams
        rootGroups = initialGroups
        rootStreams = newStreams
    }

    /// Starts the initial groups' execution groups and streams (the first subsequent payload's work).
    func begin() {
        for group in rootGroups { startTasks(of: group) }
        for stream in rootStreams { startStream(stream) }
    }

    var isDone: Bool { isFinished }

    func push(_ input: Input) {
        guard !isFinished else { return }
        inputs.append(input)
    }

    /// Handles everything reported so far, including what handling it made happen at once.
    func drain() -> [Event] {
        var events: [Event] = []
        var handledAny = false
        var i = 0
        while i < inputs.count {
            events += handle(inputs[i])
            handledAny = true
            i += 1
        }
        inputs.removeAll(keepingCapacity: true)
        if handledAny, !isFinished, rootGroups.isEmpty, rootStreams.isEmpty {
            isFinished = true
            events.append(.finished)
        }
        return events
    }

    private func handle(_ input: Input) -> [Event] {
        switch input {
        case .taskSucceeded(let task, let value, let work): return taskSucceeded(task, value, work)
        case .taskFailed(let task, let errors): return taskFailed(task, errors)
        case .streamItems(let stream, let items, let isStopped): return streamItems(stream, items, isStopped: isStopped)
        case .streamSucceeded(let stream):
            guard removeRootStream(stream) else { return [] }
            return [.streamSucceeded(stream)]
        case .streamFailed(let stream, let errors):
            _ = removeRootStream(stream)
            return [.streamFailed(stream, errors)]
        }
    }

    // MARK: Integrating new work

    /// Adds groups (parents first), tasks and streams; returns the new root groups (found
    /// outside any execution group) and the streams not owned by a task.
    private func integrate(_ work: IncrementalWorkList, parent task: ExecutionGroupTask?) -> ([DeliveryGroup], [ItemStream]) {
        var newRoots: [DeliveryGroup] = []
        var visited = Set<ObjectIdentifier>()
        let groupSet = Set(work.groups.map(ObjectIdentifier.init))
        for group in work.groups { add(group, groupSet, &newRoots, &visited, task) }
        for newTask in work.tasks { add(newTask) }
        guard let task else { return (newRoots, work.streams) }
        taskNodes[ObjectIdentifier(task)]?.childStreams += work.streams
        return (newRoots, [])
    }

    private func add(
        _ group: DeliveryGroup, _ groupSet: Set<ObjectIdentifier>, _ newRoots: inout [DeliveryGroup],
        _ visited: inout Set<ObjectIdentifier>, _ task: ExecutionGroupTask?
    ) {
        guard visited.insert(ObjectIdentifier(group)).inserted else { return }
        if let parent = group.parent {
            if groupSet.contains(ObjectIdentifier(parent)) { add(parent, groupSet, &newRoots, &visited, task) }
            // The children of a group already removed (failed) are dropped with it.
            guard groupNodes[ObjectIdentifier(parent)] != nil else { return }
        }
        groupNodes[ObjectIdentifier(group)] = GroupNode()
        if let parent = group.parent {
            groupNodes[ObjectIdentifier(parent)]?.children.append(group)
        } else if task == nil {
            newRoots.append(group)
        }
    }

    private func add(_ task: ExecutionGroupTask) {
        for group in task.groups {
            guard let node = groupNodes[ObjectIdentifier(group)] else { continue }
            node.tasks.append(task)
            node.pending += 1
            if isRoot(group) { start(task) }
        }
    }

    /// Groups without execution groups are left out; their children are promoted in their place.
    private func prune(_ groups: [DeliveryGroup]) -> [DeliveryGroup] {
        var kept: [DeliveryGroup] = []
        prune(groups, into: &kept)
        return kept
    }

    private func prune(_ groups: [DeliveryGroup], into kept: inout [DeliveryGroup]) {
        for group in groups {
            guard let node = groupNodes[ObjectIdentifier(group)] else { continue }
            if !node.tasks.isEmpty {
                kept.append(group)
            } else {
                groupNodes[ObjectIdentifier(group)] = nil
                prune(node.children, into: &kept)
            }
        }
    }

    // MARK: Releasing work

    private func isRoot(_ group: DeliveryGroup) -> Bool { rootGroups.contains { $0 === group } }

    private func start(_ task: ExecutionGroupTask) {
        guard taskNodes[ObjectIdentifier(task)] == nil else { return }
        taskNodes[ObjectIdentifier(task)] = TaskNode()
        startTask(task)
    }

    private func startTasks(of group: DeliveryGroup) {
        guard let node = groupNodes[ObjectIdentifier(group)] else { return }
        for task in node.tasks { start(task) }
    }

    /// Makes new groups and streams roots and starts them; returns the events of groups that
    /// could complete at once (their execution groups had already completed with another group).
    private func startNewWork(_ groups: [DeliveryGroup], _ streams: [ItemStream]) -> [Event] {
        var events: [Event] = []
        var groupsToStart = groups
        var streamsToStart = streams
        var i = 0
        while i < groupsToStart.count {
            let group = groupsToStart[i]
            i += 1
            rootGroups.append(group)
            startTasks(of: group)
            guard let node = groupNodes[ObjectIdentifier(group)] else { continue }
            if let failed = node.tasks.lazy.compactMap({ self.taskNodes[ObjectIdentifier($0)]?.failure }).first {
                removeGroup(group, node)
                events.append(.groupFailed(group, failed))
                continue
            }
            maybeFinish(group, node, &events, &groupsToStart, &streamsToStart)
        }
        for stream in streamsToStart {
            rootStreams.append(stream)
            startStream(stream)
        }
        return events
    }

    // MARK: Completions

    private func taskSucceeded(_ task: ExecutionGroupTask, _ value: ExecutionGroupValue, _ work: IncrementalWorkList) -> [Event] {
        guard let taskNode = taskNodes[ObjectIdentifier(task)] else { return [] }
        taskNode.value = value
        _ = integrate(work, parent: task)
        var events: [Event] = []
        var newGroups: [DeliveryGroup] = []
        var newStreams: [ItemStream] = []
        for group in task.groups {
            guard let node = groupNodes[ObjectIdentifier(group)] else { continue }
            node.pending -= 1
            maybeFinish(group, node, &events, &newGroups, &newStreams)
        }
        return events + startNewWork(newGroups, newStreams)
    }

    private func maybeFinish(
        _ group: DeliveryGroup, _ node: GroupNode, _ events: inout [Event], _ newGroups: inout [DeliveryGroup],
        _ newStreams: inout [ItemStream]
    ) {
        guard isRoot(group), node.pending == 0 else { return }
        groupNodes[ObjectIdentifier(group)] = nil
        var values: [ExecutionGroupValue] = []
        var streams: [ItemStream] = []
        for task in node.tasks {
            guard let taskNode = taskNodes[ObjectIdentifier(task)] else { continue }
            if let value = taskNode.value { values.append(value) }
            streams += taskNode.childStreams
            remove(task)
        }
        let children = prune(node.children)
        rootGroups.removeAll { $0 === group }
        if !values.isEmpty { events.append(.groupValues(group, values)) }
        events.append(.groupSucceeded(group, newGroups: children, newStreams: streams))
        newGroups += children
        newStreams += streams
    }

    private func taskFailed(_ task: ExecutionGroupTask, _ errors: [GraphQLError]) -> [Event] {
        guard let taskNode = taskNodes[ObjectIdentifier(task)] else { return [] }
        taskNode.failure = errors
        var events: [Event] = []
        for group in task.groups {
            guard let node = groupNodes[ObjectIdentifier(group)], isRoot(group) else { continue }
            removeGroup(group, node)
            events.append(.groupFailed(group, errors))
        }
        return events
    }

    private func removeGroup(_ group: DeliveryGroup, _ node: GroupNode) {
        rootGroups.removeAll { $0 === group }
        groupNodes[ObjectIdentifier(group)] = nil
        for task in node.tasks where task.groups.allSatisfy({ groupNodes[ObjectIdentifier($0)] == nil }) {
            remove(task)
        }
        for child in node.children {
            if let childNode = groupNodes[ObjectIdentifier(child)] { removeGroup(child, childNode) }
        }
    }

    private func remove(_ task: ExecutionGroupTask) {
        for group in task.groups {
            groupNodes[ObjectIdentifier(group)]?.tasks.removeAll { $0 === task }
        }
        taskNodes[ObjectIdentifier(task)] = nil
    }

    private func streamItems(
        _ stream: ItemStream, _ items: [(StreamItemValue, IncrementalWorkList)], isStopped: Bool
    ) -> [Event] {
        var values: [StreamItemValue] = []
        var newGroups: [DeliveryGroup] = []
        var newStreams: [ItemStream] = []
        for (value, work) in items {
            let (itemGroups, itemStreams) = integrate(work, parent: nil)
            let kept = prune(itemGroups)
            // Their execution groups report through ``push(_:)``, handled later in this drain.
            _ = startNewWork(kept, itemStreams)
            values.append(value)
            newGroups += kept
            newStreams += itemStreams
        }
        let event = Event.streamValues(stream, values, newGroups: newGroups, newStreams: newStreams)
        guard isStopped, removeRootStream(stream) else { return [event] }
        return [event, .streamSucceeded(stream)]
    }

    private func removeRootStream(_ stream: ItemStream) -> Bool {
        guard let i = rootStreams.firstIndex(where: { $0 === stream }) else { return false }
        rootStreams.remove(at: i)
        return true
    }
}
