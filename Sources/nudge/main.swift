import Foundation

exit(NudgeCLI.main(Array(CommandLine.arguments.dropFirst())))
