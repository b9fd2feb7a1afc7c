import FoundationEssentials
import Glibc

exit(NudgeCLI.main(Array(CommandLine.arguments.dropFirst())))
